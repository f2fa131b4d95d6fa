// GNMT (Wu et al. 2016) as MLBench task 4a trains it (MLPerf's NVIDIA implementation): a shared embedding, an
// LSTM encoder whose first layer is bidirectional with residual connections from its third layer, and an LSTM
// decoder whose first layer feeds normalized Bahdanau attention to every later layer, residual from its
// third.
#pragma once

#include "beam_search.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <vector>

namespace scalebench {

struct GnmtOptions {
    int64_t vocabulary = 32320; // MLBench's WMT16 BPE vocabulary; the data decides
    int64_t hidden = 1024;      // embedding, LSTM and attention width
    int64_t layers = 4;         // LSTM layers of the encoder and of the decoder (at least 2)
    double dropout = 0.2;
};

// score(q, k) = g * v / |v| . tanh(W_q q + W_k k + b), softmax over the source positions that are not
// padding.
class BahdanauAttentionImpl : public torch::nn::Module {
  public:
    explicit BahdanauAttentionImpl(int64_t units);
    // query: (B, Tq, H), keys: (B, S, H), padding: (B, S) true at padding -> context (B, Tq, H)
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& keys,
                          const torch::Tensor& padding);

    torch::nn::Linear linear_q{nullptr}, linear_k{nullptr};
    torch::Tensor linear_att, normalize_scalar, normalize_bias;
};
TORCH_MODULE(BahdanauAttention);

// The decoder's first LSTM layer and the attention it queries.
class RecurrentAttentionImpl : public torch::nn::Module {
  public:
    explicit RecurrentAttentionImpl(int64_t hidden);
    torch::nn::LSTM rnn{nullptr};
    BahdanauAttention attn{nullptr};
};
TORCH_MODULE(RecurrentAttention);

class GnmtImpl : public torch::nn::Module {
  public:
    using State = std::vector<std::tuple<torch::Tensor, torch::Tensor>>; // (h, c) of each decoder LSTM

    explicit GnmtImpl(const GnmtOptions& options);

    // source: (B, S), source_lengths: (B), target_in: (B, T) -> logits (B, T, V) (teacher forcing)
    torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& source_lengths,
                          const torch::Tensor& target_in);
    // Greedy decoding from <s>: (B, <= max_length) token ids, each row ending with </s> or at max_length.
    torch::Tensor greedyDecode(const torch::Tensor& source, const torch::Tensor& source_lengths,
                               int64_t max_length, int64_t bos, int64_t eos);
    // Beam search from <s> (beam_search.h; no coverage penalty): (B, <= options.max_length) token ids.
    torch::Tensor beamDecode(const torch::Tensor& source, const torch::Tensor& source_lengths,
                             const BeamOptions& options);

    const GnmtOptions& options() const { return options_; }

    torch::nn::Embedding embedder{nullptr}; // shared by encoder and decoder (MLBench: share_embedding)
    torch::nn::ModuleList encoder_layers{nullptr}, decoder_layers{nullptr};
    RecurrentAttention att_rnn{nullptr};
    torch::nn::Linear classifier{nullptr};

  private:
    // context: (B, S, H)
    torch::Tensor encode(const torch::Tensor& source, const torch::Tensor& source_lengths);
    // embedded: (B, T, H) -> logits (B, T, V); state: updated in place (empty: zeros)
    torch::Tensor decode(const torch::Tensor& embedded, const torch::Tensor& context,
                         const torch::Tensor& padding, State& state);

    GnmtOptions options_;
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(Gnmt);

} // namespace scalebench
