// A Llama-style decoder (Touvron et al. 2023): token embedding, blocks of RMSNorm -> grouped-query causal
// attention with rotary position embeddings -> residual, RMSNorm -> SwiGLU MLP -> residual; final RMSNorm,
// untied LM head. Parameter names follow Meta's reference code (tok_embeddings, layers.N.attention.wq, ...).
#pragma once

#include "model_flops.h"

#include <torch/torch.h>

namespace scalebench {

// Root-mean-square layer norm (no centring, no bias), computed in float32: x / sqrt(mean(x^2) + eps) *
// weight.
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
// query and key projections' rows. x: (B, heads, T, d); returns the same shape.
torch::Tensor applyRotaryEmbedding(const torch::Tensor& x, double theta);

class LlamaAttentionImpl : public torch::nn::Module {
  public:
    LlamaAttentionImpl(const DecoderShape& shape, double rope_theta);
    torch::Tensor forward(const torch::Tensor& x); // x: (B, T, hidden) -> (B, T, hidden)
    torch::nn::Linear wq{nullptr}, wk{nullptr}, wv{nullptr}, wo{nullptr};

  private:
    int64_t heads_, kv_heads_, head_dim_;
    double rope_theta_;
};
TORCH_MODULE(LlamaAttention);

// SwiGLU: w2(silu(w1 x) * w3 x).
class LlamaFeedForwardImpl : public torch::nn::Module {
  public:
    LlamaFeedForwardImpl(int64_t hidden, int64_t ffn);
    torch::Tensor forward(const torch::Tensor& x);
    torch::nn::Linear w1{nullptr}, w2{nullptr}, w3{nullptr};
};
TORCH_MODULE(LlamaFeedForward);

class LlamaBlockImpl : public torch::nn::Module {
  public:
    LlamaBlockImpl(const DecoderShape& shape, double rope_theta, double norm_eps);
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
};
TORCH_MODULE(Llama);

} // namespace scalebench
