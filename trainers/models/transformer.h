// The Transformer (Vaswani et al. 2017) as MLBench task 4b trains it (fairseq's, via NVIDIA's MLPerf code):
// pre-norm encoder and decoder layers (normalize_before), sinusoidal positions, one embedding shared by the
// encoder, the decoder and the output projection (share_all_embeddings), ReLU feed-forward.
#pragma once

#include "beam_search.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

namespace scalebench {

struct TransformerOptions {
    int64_t vocabulary = 33712; // the data decides
    int64_t model = 1024;       // d_model (MLBench: transformer big, 1024)
    int64_t heads = 16;
    int64_t ffn = 4096;
    int64_t layers = 6;   // encoder layers and decoder layers
    double dropout = 0.1; // after attention, feed-forward and the embedding
    double attention_dropout = 0.1;
    double relu_dropout = 0.1;
};

// Scaled dot-product attention over heads, fairseq's parameter names.
class MultiheadAttentionImpl : public torch::nn::Module {
  public:
    MultiheadAttentionImpl(int64_t model, int64_t heads, double dropout);
    // query: (B, Tq, D), key_value: (B, Tk, D); key_padding: (B, Tk) true at padding or undefined;
    // causal: each query sees keys up to its own position -> (B, Tq, D)
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& key_value,
                          const torch::Tensor& key_padding, bool causal);

    torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, out_proj{nullptr};

  private:
    int64_t heads_;
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(MultiheadAttention);

// One encoder layer (decoder = false) or decoder layer (with encoder_attn), pre-norm.
class TransformerLayerImpl : public torch::nn::Module {
  public:
    TransformerLayerImpl(const TransformerOptions& options, bool decoder);
    // x: (B, T, D); memory: (B, S, D) for a decoder layer -> (B, T, D)
    torch::Tensor forward(torch::Tensor x, const torch::Tensor& padding, const torch::Tensor& memory,
                          const torch::Tensor& memory_padding);

    MultiheadAttention self_attn{nullptr}, encoder_attn{nullptr};
    torch::nn::LayerNorm self_attn_layer_norm{nullptr}, encoder_attn_layer_norm{nullptr},
        final_layer_norm{nullptr};
    torch::nn::Linear fc1{nullptr}, fc2{nullptr};

  private:
    torch::nn::Dropout dropout_{nullptr}, relu_dropout_{nullptr};
};
TORCH_MODULE(TransformerLayer);

class TransformerImpl : public torch::nn::Module {
  public:
    explicit TransformerImpl(const TransformerOptions& options);

    // source: (B, S), target_in: (B, T) -> logits (B, T, V) (teacher forcing). Padding id 0.
    torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& target_in);
    // Greedy decoding from <s>: (B, <= max_length) token ids.
    torch::Tensor greedyDecode(const torch::Tensor& source, int64_t max_length, int64_t bos, int64_t eos);
    // Beam search from <s> (beam_search.h): (B, <= options.max_length) token ids of each best hypothesis.
    torch::Tensor beamDecode(const torch::Tensor& source, const BeamOptions& options);

    const TransformerOptions& options() const { return options_; }

    torch::nn::Embedding embed_tokens{nullptr};
    torch::nn::ModuleList encoder_layers{nullptr}, decoder_layers{nullptr};
    torch::nn::LayerNorm encoder_layer_norm{nullptr}, decoder_layer_norm{nullptr};

  private:
    torch::Tensor embed(const torch::Tensor& tokens); // (B, T) -> (B, T, D): scaled, positions, dropout
    torch::Tensor encode(const torch::Tensor& source);
    torch::Tensor decode(const torch::Tensor& target_in, const torch::Tensor& memory,
                         const torch::Tensor& memory_padding);

    TransformerOptions options_;
    torch::nn::Dropout dropout_{nullptr};
    // The position table on the model's device, as long as the longest sequence so far: made on the host
    // and copied once, not every forward (not a buffer: checkpoints and fixtures hold no such tensor).
    torch::Tensor positions_;
};
TORCH_MODULE(Transformer);

// fairseq's sinusoidal position table: (length, dim), sin in the first half, cos in the second.
torch::Tensor sinusoidalPositions(int64_t length, int64_t dim);

} // namespace scalebench
