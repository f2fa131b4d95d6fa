// A Llama-style decoder (Touvron et al. 2023): token embedding, blocks of RMSNorm -> grouped-query causal
// attention with rotary position embeddings -> residual, RMSNorm -> SwiGLU MLP -> residual; final RMSNorm,
// untied LM head. Parameter names follow Meta's reference code (tok_embeddings, layers.N.attention.wo, ...)
// but for the fused projections wqkv and w13 (llamaStateFromMeta converts Meta's state).
#pragma once

#include "model_flops.h"

#include <map>
#include <memory>
#include <string>
#include <torch/torch.h>
#include <utility>
#include <vector>

namespace scalebench {

// Root-mean-square layer norm (no centring, no bias): x / sqrt(mean(x^2) + eps) * weight, through
// at::rms_norm (one fused kernel on a GPU), in float32 for the float32 residual stream.
class RMSNormImpl : public torch::nn::Module {
  public:
    RMSNormImpl(int64_t size, double eps);
    torch::Tensor forward(const torch::Tensor& x);
    torch::Tensor weight;

  private:
    double eps_;
};
TORCH_MODULE(RMSNorm);

// Rotary position embeddings in the "rotate half" convention (GPT-NeoX, Hugging Face Llama): the two halves
// of each head's features form the pairs (x[i], x[i + d/2]) rotated by position x theta^(-2i/d). Meta's code
// rotates interleaved pairs (x[2i], x[2i+1]) instead; the two differ only by a fixed permutation of the
// query and key projections' rows. The cos and sin tables are made once per sequence length, device and
// dtype and kept; rotating is then three kernels: x * cos + swap_halves(x) * (-sin, sin).
class RotaryEmbedding {
  public:
    RotaryEmbedding(int64_t head_dim, double theta);
    // x: (B, T, heads, d) -> the same shape, rotated by each token's position.
    torch::Tensor apply(const torch::Tensor& x);

  private:
    struct Tables {
        int64_t length;
        c10::Device device;
        c10::ScalarType dtype;
        torch::Tensor cos, signed_sin; // (T, 1, d): cos(angles, angles), (-sin(angles), sin(angles))
    };
    const Tables& tables(int64_t length, const torch::TensorOptions& options);
    int64_t head_dim_;
    double theta_;
    std::vector<Tables> cached_; // one per sequence length, device and dtype seen
};

// The reference form of the rotation (x * cos + rotate_half(x) * sin, tables made each call), for tests.
// x: (B, heads, T, d); returns the same shape.
torch::Tensor applyRotaryEmbedding(const torch::Tensor& x, double theta);

// Grouped-query causal attention. The query, key and value projections are one matrix, wqkv: Meta's wq, wk
// and wv stacked by rows (llamaStateFromMeta), one matrix product and one bf16 cast of its input.
class LlamaAttentionImpl : public torch::nn::Module {
  public:
    LlamaAttentionImpl(const DecoderShape& shape, std::shared_ptr<RotaryEmbedding> rotary);
    torch::Tensor forward(const torch::Tensor& x); // x: (B, T, hidden) -> (B, T, hidden)
    torch::nn::Linear wqkv{nullptr}, wo{nullptr};

  private:
    int64_t heads_, kv_heads_, head_dim_;
    std::shared_ptr<RotaryEmbedding> rotary_;
};
TORCH_MODULE(LlamaAttention);

// SwiGLU: w2(silu(w1 x) * w3 x), w1 and w3 as one matrix w13 (Meta's w1 rows, then w3's).
class LlamaFeedForwardImpl : public torch::nn::Module {
  public:
    LlamaFeedForwardImpl(int64_t hidden, int64_t ffn);
    torch::Tensor forward(const torch::Tensor& x);
    torch::nn::Linear w13{nullptr}, w2{nullptr};
};
TORCH_MODULE(LlamaFeedForward);

class LlamaBlockImpl : public torch::nn::Module {
  public:
    LlamaBlockImpl(const DecoderShape& shape, std::shared_ptr<RotaryEmbedding> rotary, double norm_eps);
    torch::Tensor forward(const torch::Tensor& x);
    RMSNorm attention_norm{nullptr}, ffn_norm{nullptr};
    LlamaAttention attention{nullptr};
    LlamaFeedForward feed_forward{nullptr};
};
TORCH_MODULE(LlamaBlock);

class LlamaImpl : public torch::nn::Module {
  public:
    // Llama 2: RoPE theta 10000, RMSNorm eps 1e-5. Weights: normal(0, 0.02), norms 1.
    explicit LlamaImpl(const DecoderShape& shape, double rope_theta = 10000, double norm_eps = 1e-5);
    torch::Tensor forward(const torch::Tensor& tokens); // tokens: (B, T) int64 -> logits (B, T, vocab)
    const DecoderShape& shape() const { return shape_; }

    torch::nn::Embedding tok_embeddings{nullptr};
    torch::nn::ModuleList layers;
    RMSNorm norm{nullptr};
    torch::nn::Linear output{nullptr};

  private:
    DecoderShape shape_;
    std::shared_ptr<RotaryEmbedding> rotary_; // one set of tables for every layer
};
TORCH_MODULE(Llama);

// A state dict in Meta's names (layers.N.attention.wq|wk|wv, layers.N.feed_forward.w1|w3, ...) in this
// model's: wq, wk and wv stacked into wqkv, w1 and w3 into w13; every other tensor as it is. Throws
// std::runtime_error naming a missing tensor.
std::map<std::string, torch::Tensor> llamaStateFromMeta(const std::map<std::string, torch::Tensor>& meta,
                                                        int64_t layers);

} // namespace scalebench
