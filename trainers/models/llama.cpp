// A Llama-style decoder: RMSNorm, grouped-query causal attention with rotary embeddings, SwiGLU.
#include "llama.h"

#include <stdexcept>

namespace scalebench {

RMSNormImpl::RMSNormImpl(int64_t size, double eps) : eps_(eps) {
    weight = register_parameter("weight", torch::ones({size}));
}

torch::Tensor RMSNormImpl::forward(const torch::Tensor& x) {
    const auto x32 = x.to(torch::kFloat32);
    const auto normed = x32 * torch::rsqrt(x32.pow(2).mean(-1, /*keepdim=*/true) + eps_);
    return normed.to(x.scalar_type()) * weight;
}

torch::Tensor applyRotaryEmbedding(const torch::Tensor& x, double theta) {
    const int64_t T = x.size(2), d = x.size(3);
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(x.device());
    const auto inv_freq = torch::pow(theta, -torch::arange(0, d, 2, f32) / static_cast<double>(d)); // (d/2)
    const auto angles = torch::outer(torch::arange(T, f32), inv_freq); // (T, d/2)
    const auto emb = torch::cat({angles, angles}, -1);                 // (T, d)
    const auto cos = emb.cos().to(x.scalar_type()), sin = emb.sin().to(x.scalar_type());
    const auto halves = x.chunk(2, -1);
    const auto rotated = torch::cat({-halves[1], halves[0]}, -1); // rotate_half(x)
    return x * cos + rotated * sin;
}

LlamaAttentionImpl::LlamaAttentionImpl(const DecoderShape& s, double rope_theta)
    : heads_(s.heads), kv_heads_(s.kv_heads), head_dim_(s.hidden / s.heads), rope_theta_(rope_theta) {
    if (s.hidden % s.heads != 0 || s.heads % s.kv_heads != 0 || head_dim_ % 2 != 0)
        throw std::invalid_argument("llama: hidden " + std::to_string(s.hidden) + ", heads " +
                                    std::to_string(s.heads) + " and kv heads " + std::to_string(s.kv_heads) +
                                    " need hidden = heads x an even head size and heads = kv heads x n");
    const auto linear = [](int64_t in, int64_t out) { return torch::nn::LinearOptions(in, out).bias(false); };
    wq = register_module("wq", torch::nn::Linear(linear(s.hidden, s.heads * head_dim_)));
    wk = register_module("wk", torch::nn::Linear(linear(s.hidden, s.kv_heads * head_dim_)));
    wv = register_module("wv", torch::nn::Linear(linear(s.hidden, s.kv_heads * head_dim_)));
    wo = register_module("wo", torch::nn::Linear(linear(s.heads * head_dim_, s.hidden)));
}

torch::Tensor LlamaAttentionImpl::forward(const torch::Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1);
    auto q = wq->forward(x).view({B, T, heads_, head_dim_}).transpose(1, 2);    // (B, H, T, d)
    auto k = wk->forward(x).view({B, T, kv_heads_, head_dim_}).transpose(1, 2); // (B, KV, T, d)
    auto v = wv->forward(x).view({B, T, kv_heads_, head_dim_}).transpose(1, 2); // (B, KV, T, d)
    q = applyRotaryEmbedding(q, rope_theta_);
    k = applyRotaryEmbedding(k, rope_theta_);
    if (kv_heads_ != heads_) { // query head h reads key/value head h / (H / KV)
        k = k.repeat_interleave(heads_ / kv_heads_, 1);
        v = v.repeat_interleave(heads_ / kv_heads_, 1);
    }
    const auto y = torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true); // (B, H, T, d)
    return wo->forward(y.transpose(1, 2).reshape({B, T, heads_ * head_dim_}));
}

LlamaFeedForwardImpl::LlamaFeedForwardImpl(int64_t hidden, int64_t ffn) {
    w1 = register_module("w1", torch::nn::Linear(torch::nn::LinearOptions(hidden, ffn).bias(false)));
    w2 = register_module("w2", torch::nn::Linear(torch::nn::LinearOptions(ffn, hidden).bias(false)));
    w3 = register_module("w3", torch::nn::Linear(torch::nn::LinearOptions(hidden, ffn).bias(false)));
}

torch::Tensor LlamaFeedForwardImpl::forward(const torch::Tensor& x) {
    return w2->forward(torch::silu(w1->forward(x)) * w3->forward(x));
}

LlamaBlockImpl::LlamaBlockImpl(const DecoderShape& s, double rope_theta, double norm_eps) {
    attention_norm = register_module("attention_norm", RMSNorm(s.hidden, norm_eps));
    attention = register_module("attention", LlamaAttention(s, rope_theta));
    ffn_norm = register_module("ffn_norm", RMSNorm(s.hidden, norm_eps));
    feed_forward = register_module("feed_forward", LlamaFeedForward(s.hidden, s.ffn));
}

torch::Tensor LlamaBlockImpl::forward(const torch::Tensor& x) {
    const auto h = x + attention->forward(attention_norm->forward(x));
    return h + feed_forward->forward(ffn_norm->forward(h));
}

LlamaImpl::LlamaImpl(const DecoderShape& s, double rope_theta, double norm_eps) : shape_(s) {
    tok_embeddings = register_module("tok_embeddings", torch::nn::Embedding(s.vocab, s.hidden));
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < s.layers; ++i)
        layers->push_back(LlamaBlock(s, rope_theta, norm_eps));
    norm = register_module("norm", RMSNorm(s.hidden, norm_eps));
    output =
        register_module("output", torch::nn::Linear(torch::nn::LinearOptions(s.hidden, s.vocab).bias(false)));
    torch::NoGradGuard no_grad;
    for (auto& p : parameters())
        if (p.dim() >= 2) p.normal_(0, 0.02); // matrices and embeddings; the norms' weights stay 1
}

torch::Tensor LlamaImpl::forward(const torch::Tensor& tokens) {
    auto h = tok_embeddings->forward(tokens); // (B, T, hidden)
    for (const auto& layer : *layers)
        h = layer->as<LlamaBlock>()->forward(h);
    return output->forward(norm->forward(h)); // (B, T, vocab)
}

} // namespace scalebench
