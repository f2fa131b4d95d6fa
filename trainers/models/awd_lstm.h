// The AWD-LSTM language model (Merity et al. 2017, MLBench task 3) as far as it makes sense here: word
// embedding, a stack of one-layer torch::nn::LSTMs (the last one as wide as the embedding when the
// weights are tied), the decoder tied to the embedding, embedding dropout, locked (variational) dropout on
// the embedding output, between layers and on the output, and DropConnect on every layer's hidden-to-hidden
// weights (weight drop).
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/rnn.h>
#include <torch/types.h>
#include <tuple>
#include <vector>

namespace scalebench {

struct AwdLstmOptions {
    int64_t vocabulary = 0;
    int64_t embedding = 400; // AWD-LSTM's WikiText-2 model: 400, 1150, 3 layers, tied
    int64_t hidden = 1150;
    int64_t layers = 3;
    bool tied = true;
    double dropout = 0.4;           // locked dropout on the last layer's output
    double dropout_hidden = 0.2;    // locked dropout between layers (0.2 for WikiText-2)
    double dropout_input = 0.65;    // locked dropout on the embedding output
    double dropout_embedding = 0.1; // whole words of the embedding dropped
    double weight_drop = 0.5;       // DropConnect on each layer's hidden-to-hidden weights (AWD-LSTM's wdrop)
};

// Every layer's (h, c), each (1, B, width of the layer).
using LstmState = std::vector<std::tuple<torch::Tensor, torch::Tensor>>;

struct LanguageModelOutput {
    torch::Tensor logits;       // (T, B, V)
    torch::Tensor last_output;  // (T, B, E) the last layer's output before dropout (temporal activation reg.)
    torch::Tensor last_dropped; // (T, B, E) the same after dropout (activation regularisation)
    LstmState state;            // to carry into the next batch (detached by the caller)
};

// The decoder's bias, and its weight when not tied: the names of PyTorch's nn.Linear ("decoder.bias").
class DecoderImpl : public torch::nn::Module {
  public:
    DecoderImpl(int64_t in, int64_t out, bool own_weight);
    torch::Tensor weight; // undefined when tied
    torch::Tensor bias;
};
TORCH_MODULE(Decoder);

class AwdLstmImpl : public torch::nn::Module {
  public:
    explicit AwdLstmImpl(const AwdLstmOptions& options);
    // tokens: (T, B) int64; state: from initialState or the previous batch.
    LanguageModelOutput forward(const torch::Tensor& tokens, const LstmState& state);
    LstmState initialState(int64_t batch) const; // zeros
    const AwdLstmOptions& options() const { return options_; }
    // Width of layer l's output.
    int64_t layerWidth(int64_t l) const;

    torch::nn::Embedding encoder{nullptr};
    torch::nn::ModuleList rnns;
    Decoder decoder{nullptr};

  private:
    AwdLstmOptions options_;
};
TORCH_MODULE(AwdLstm);

// x (T, B, H) with one dropout mask per sequence, the same at every time step (AWD-LSTM's LockedDropout).
torch::Tensor lockedDropout(const torch::Tensor& x, double p, bool training);

} // namespace scalebench
