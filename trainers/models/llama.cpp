// A Llama-style decoder: RMSNorm, grouped-query causal attention with rotary embeddings, SwiGLU.
#include "llama.h"

#include <stdexcept>

namespace scalebench {

RMSNormImpl::RMSNormImpl(int64_t size, double eps) : eps_(eps) {
    weight = register_parameter("weight", torch::ones({size}));
}

torch::Tensor RMSNormImpl::forward(const torch::Tensor& x) {
    return at::rms_norm(x, {weight.size(0)}, weight, eps_);
}

RotaryEmbedding::RotaryEmbedding(int64_t head_dim, double theta) : head_dim_(head_dim), theta_(theta) {}

const RotaryEmbedding::Tables& RotaryEmbedding::tables(int64_t length, const torch::TensorOptions& options) {
    const c10::ScalarType dtype = options.dtype().toScalarType();
    for (const auto& cached : cached_)
        if (cached.length == length && cached.device == options.device() && cached.dtype == dtype)
            return cached;
    // Made on the host in float32 as the reference makes them, then moved once.
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32);
    const auto inv_freq =
        torch::pow(theta_, -torch::arange(0, head_dim_, 2, f32) / static_cast<double>(head_dim_)); // (d/2)
    const auto angles = torch::outer(torch::arange(length, f32), inv_freq);                        // (T, d/2)
    const auto sin = angles.sin();
    // (T, 1, d): broadcast over batch and heads
    cached_.push_back({length, options.device(), dtype,
                       torch::cat({angles, angles}, -1).cos().unsqueeze(1).to(options),
                       torch::cat({-sin, sin}, -1).unsqueeze(1).to(options)});
    return cached_.back();
}

torch::Tensor RotaryEmbedding::apply(const torch::Tensor& x) {
    const Tables& t = tables(x.size(1), x.options());
    const auto halves = x.chunk(2, -1);
    const auto swapped = torch::cat({halves[1], halves[0]}, -1); // with signed_sin: rotate_half(x) * sin
    return torch::addcmul(x * t.cos, swapped, t.signed_sin);
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

LlamaAttentionImpl::LlamaAttentionImpl(const DecoderShape& s, std::shared_ptr<RotaryEmbedding> rotary)
    : heads_(s.heads), kv_heads_(s.kv_heads), head_dim_(s.hidden / s.heads), rotary_(std::move(rotary)) {
    if (s.hidden % s.heads != 0 || s.heads % s.kv_heads != 0 || head_dim_ % 2 != 0)
        throw std::invalid_argument("llama: hidden " + std::to_string(s.hidden) + ", heads " +
                                    std::to_string(s.heads) + " and kv heads " + std::to_string(s.kv_heads) +
                                    " need hidden = heads x an even head size and heads = kv heads x n");
    const auto linear = [](int64_t in, int64_t out) { return torch::nn::LinearOptions(in, out).bias(false); };
    wqkv =
        register_module("wqkv", torch::nn::Linear(linear(s.hidden, (s.heads + 2 * s.kv_heads) * head_dim_)));
    wo = register_module("wo", torch::nn::Linear(linear(s.heads * head_dim_, s.hidden)));
}

torch::Tensor LlamaAttentionImpl::forward(const torch::Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1);
    const auto qkv = wqkv->forward(x).view({B, T, heads_ + 2 * kv_heads_, head_dim_});
    const auto qk = rotary_->apply(qkv.narrow(2, 0, heads_ + kv_heads_));  // queries and keys in one pass
    auto q = qk.narrow(2, 0, heads_).transpose(1, 2);                      // (B, H, T, d)
    auto k = qk.narrow(2, heads_, kv_heads_).transpose(1, 2);              // (B, KV, T, d)
    auto v = qkv.narrow(2, heads_ + kv_heads_, kv_heads_).transpose(1, 2); // (B, KV, T, d)
    if (kv_heads_ != heads_) { // query head h reads key/value head h / (H / KV)
        k = k.repeat_interleave(heads_ / kv_heads_, 1);
        v = v.repeat_interleave(heads_ / kv_heads_, 1);
    }
    const auto y = torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true); // (B, H, T, d)
    return wo->forward(y.transpose(1, 2).reshape({B, T, heads_ * head_dim_}));
}

LlamaFeedForwardImpl::LlamaFeedForwardImpl(int64_t hidden, int64_t ffn) {
    w13 = register_module("w13", torch::nn::Linear(torch::nn::LinearOptions(hidden, 2 * ffn).bias(false)));
    w2 = register_module("w2", torch::nn::Linear(torch::nn::LinearOptions(ffn, hidden).bias(false)));
}

torch::Tensor LlamaFeedForwardImpl::forward(const torch::Tensor& x) {
    const auto gate_up = w13->forward(x).chunk(2, -1);
    return w2->forward(torch::silu(gate_up[0]) * gate_up[1]);
}

LlamaBlockImpl::LlamaBlockImpl(const DecoderShape& s, std::shared_ptr<RotaryEmbedding> rotary,
                               double norm_eps) {
    attention_norm = register_module("attention_norm", RMSNorm(s.hidden, norm_eps));
    attention = register_module("attention", LlamaAttention(s, std::move(rotary)));
    ffn_norm = register_module("ffn_norm", RMSNorm(s.hidden, norm_eps));
    feed_forward = register_module("feed_forward", LlamaFeedForward(s.hidden, s.ffn));
}

torch::Tensor LlamaBlockImpl::forward(const torch::Tensor& x) {
    const auto h = x + attention->forward(attention_norm->forward(x));
    return h + feed_forward->forward(ffn_norm->forward(h));
}

LlamaImpl::LlamaImpl(const DecoderShape& s, double rope_theta, double norm_eps)
    : shape_(s), rotary_(std::make_shared<RotaryEmbedding>(s.hidden / s.heads, rope_theta)) {
    tok_embeddings = register_module("tok_embeddings", torch::nn::Embedding(s.vocab, s.hidden));
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < s.layers; ++i)
        layers->push_back(LlamaBlock(s, rotary_, norm_eps));
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

std::map<std::string, torch::Tensor> llamaStateFromMeta(const std::map<std::string, torch::Tensor>& meta,
                                                        int64_t layers) {
    std::map<std::string, torch::Tensor> state = meta;
    const auto take = [&](const std::string& name) {
        const auto it = state.find(name);
        if (it == state.end())
            throw std::runtime_error("llama state in Meta's names: no tensor '" + name + "'");
        torch::Tensor tensor = it->second;
        state.erase(it);
        return tensor;
    };
    for (int64_t l = 0; l < layers; ++l) {
        const std::string layer = "layers." + std::to_string(l) + ".";
        const auto wq = take(layer + "attention.wq.weight"), wk = take(layer + "attention.wk.weight"),
                   wv = take(layer + "attention.wv.weight");
        state[layer + "attention.wqkv.weight"] = torch::cat({wq, wk, wv}, 0);
        const auto w1 = take(layer + "feed_forward.w1.weight"), w3 = take(layer + "feed_forward.w3.weight");
        state[layer + "feed_forward.w13.weight"] = torch::cat({w1, w3}, 0);
    }
    return state;
}

} // namespace scalebench
