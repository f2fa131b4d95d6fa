// The Transformer of MLBench task 4b: pre-norm layers, shared embeddings, sinusoidal positions.
#include "transformer.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

torch::nn::Linear xavierLinear(int64_t in, int64_t out) {
    torch::nn::Linear linear(in, out);
    torch::nn::init::xavier_uniform_(linear->weight);
    torch::nn::init::zeros_(linear->bias);
    return linear;
}

torch::nn::LayerNorm layerNorm(int64_t dim) {
    return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}));
}

} // namespace

torch::Tensor sinusoidalPositions(int64_t length, int64_t dim) {
    const int64_t half = dim / 2;
    const double step = std::log(10000.0) / static_cast<double>(half - 1);
    auto frequencies = torch::exp(torch::arange(half, torch::kFloat32) * -step);                  // (half)
    auto angles = torch::arange(length, torch::kFloat32).unsqueeze(1) * frequencies.unsqueeze(0); // (L, half)
    auto table = torch::cat({torch::sin(angles), torch::cos(angles)}, 1);
    if (dim % 2 == 1) table = torch::cat({table, torch::zeros({length, 1})}, 1);
    return table;
}

MultiheadAttentionImpl::MultiheadAttentionImpl(int64_t model, int64_t heads, double dropout) : heads_(heads) {
    if (model % heads != 0)
        throw std::invalid_argument("attention: width " + std::to_string(model) + " is not a multiple of " +
                                    std::to_string(heads) + " heads");
    q_proj = register_module("q_proj", xavierLinear(model, model));
    k_proj = register_module("k_proj", xavierLinear(model, model));
    v_proj = register_module("v_proj", xavierLinear(model, model));
    out_proj = register_module("out_proj", xavierLinear(model, model));
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

torch::Tensor MultiheadAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& key_value,
                                              const torch::Tensor& key_padding, bool causal) {
    const int64_t b = query.size(0), tq = query.size(1), tk = key_value.size(1), d = query.size(2);
    const int64_t dh = d / heads_;
    auto split = [&](const torch::Tensor& x, int64_t t) {
        return x.view({b, t, heads_, dh}).transpose(1, 2);
    };
    auto q = split(q_proj->forward(query), tq);     // (B, h, Tq, dh)
    auto k = split(k_proj->forward(key_value), tk); // (B, h, Tk, dh)
    auto v = split(v_proj->forward(key_value), tk);
    // softmax(q k^T / sqrt(dh) + mask) v, with attention dropout while training, in one fused call (flash or
    // memory-efficient kernels on a GPU). sdpa's masks are true where a query MAY attend to a key.
    const double dropout = is_training() ? dropout_->options.p() : 0.0;
    const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
    torch::Tensor out;
    if (causal && tq == tk && !key_padding.defined()) {
        // The decoder's self-attention: sdpa's own causal mask, which lets a GPU use its flash kernel.
        out = torch::scaled_dot_product_attention(q, k, v, {}, dropout, true, scale); // (B, h, Tq, dh)
    } else {
        torch::Tensor allowed; // broadcasts to (B, h, Tq, Tk)
        if (key_padding.defined()) allowed = key_padding.logical_not().view({b, 1, 1, tk});
        if (causal) { // query i sees keys up to i + Tk - Tq (the last query sees every key)
            auto past = torch::ones({tq, tk}, torch::dtype(torch::kBool).device(q.device())).tril(tk - tq);
            allowed = allowed.defined() ? allowed.logical_and(past) : past;
        }
        out = torch::scaled_dot_product_attention(q, k, v, allowed, dropout, false, scale); // (B, h, Tq, dh)
        // A query that may attend to no key: softmax over only -inf gave NaN, sdpa gives 0 (since
        // PyTorch 2.5); kept NaN, so that an all-padding source shows in the loss as before, on every device.
        if (allowed.defined()) {
            const auto no_key = allowed.logical_not().all(-1, true); // broadcasts to (B, h, Tq, 1)
            out = out.masked_fill(no_key, std::numeric_limits<double>::quiet_NaN());
        }
    }
    return out_proj->forward(out.transpose(1, 2).reshape({b, tq, d})); // (B, Tq, D)
}

TransformerLayerImpl::TransformerLayerImpl(const TransformerOptions& o, bool decoder) {
    self_attn = register_module("self_attn", MultiheadAttention(o.model, o.heads, o.attention_dropout));
    self_attn_layer_norm = register_module("self_attn_layer_norm", layerNorm(o.model));
    if (decoder) {
        encoder_attn =
            register_module("encoder_attn", MultiheadAttention(o.model, o.heads, o.attention_dropout));
        encoder_attn_layer_norm = register_module("encoder_attn_layer_norm", layerNorm(o.model));
    }
    fc1 = register_module("fc1", xavierLinear(o.model, o.ffn));
    fc2 = register_module("fc2", xavierLinear(o.ffn, o.model));
    final_layer_norm = register_module("final_layer_norm", layerNorm(o.model));
    dropout_ = register_module("dropout", torch::nn::Dropout(o.dropout));
    relu_dropout_ = register_module("relu_dropout", torch::nn::Dropout(o.relu_dropout));
}

torch::Tensor TransformerLayerImpl::forward(torch::Tensor x, const torch::Tensor& padding,
                                            const torch::Tensor& memory,
                                            const torch::Tensor& memory_padding) {
    const bool decoder = !encoder_attn.is_empty();
    auto h = self_attn_layer_norm->forward(x);
    x = x + dropout_->forward(self_attn->forward(h, h, decoder ? torch::Tensor() : padding, decoder));
    if (decoder) {
        h = encoder_attn_layer_norm->forward(x);
        x = x + dropout_->forward(encoder_attn->forward(h, memory, memory_padding, false));
    }
    h = relu_dropout_->forward(torch::relu(fc1->forward(final_layer_norm->forward(x))));
    return x + dropout_->forward(fc2->forward(h));
}

TransformerImpl::TransformerImpl(const TransformerOptions& o) : options_(o) {
    embed_tokens = register_module(
        "embed_tokens",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(o.vocabulary, o.model).padding_idx(0)));
    {
        torch::NoGradGuard no_grad; // fairseq: normal(0, d^-1/2), padding row 0
        embed_tokens->weight.normal_(0, 1.0 / std::sqrt(static_cast<double>(o.model)));
        embed_tokens->weight[0].zero_();
    }
    encoder_layers = register_module("encoder_layers", torch::nn::ModuleList());
    decoder_layers = register_module("decoder_layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < o.layers; ++i) {
        encoder_layers->push_back(TransformerLayer(o, false));
        decoder_layers->push_back(TransformerLayer(o, true));
    }
    encoder_layer_norm = register_module("encoder_layer_norm", layerNorm(o.model));
    decoder_layer_norm = register_module("decoder_layer_norm", layerNorm(o.model));
    dropout_ = register_module("dropout", torch::nn::Dropout(o.dropout));
}

torch::Tensor TransformerImpl::embed(const torch::Tensor& tokens) {
    auto x = embed_tokens->forward(tokens) * std::sqrt(static_cast<double>(options_.model)); // (B, T, D)
    const int64_t length = tokens.size(1);
    if (!positions_.defined() || positions_.size(0) < length || positions_.device() != x.device())
        positions_ = sinusoidalPositions(length, options_.model).to(x.device()); // row i depends on i alone
    return dropout_->forward(x + positions_.narrow(0, 0, length).unsqueeze(0));
}

torch::Tensor TransformerImpl::encode(const torch::Tensor& source) {
    const auto padding = source.eq(0);
    auto x = embed(source);
    for (const auto& layer : *encoder_layers)
        x = layer->as<TransformerLayer>()->forward(x, padding, {}, {});
    return encoder_layer_norm->forward(x); // (B, S, D)
}

torch::Tensor TransformerImpl::decode(const torch::Tensor& target_in, const torch::Tensor& memory,
                                      const torch::Tensor& memory_padding) {
    auto x = embed(target_in);
    for (const auto& layer : *decoder_layers)
        x = layer->as<TransformerLayer>()->forward(x, {}, memory, memory_padding);
    x = decoder_layer_norm->forward(x);
    return torch::matmul(x, embed_tokens->weight.t()); // (B, T, V): the shared embedding as the projection
}

torch::Tensor TransformerImpl::forward(const torch::Tensor& source, const torch::Tensor& target_in) {
    return decode(target_in, encode(source), source.eq(0));
}

torch::Tensor TransformerImpl::greedyDecode(const torch::Tensor& source, int64_t max_length, int64_t bos,
                                            int64_t eos) {
    const auto memory = encode(source);
    const auto padding = source.eq(0);
    auto prefix = torch::full({source.size(0), 1}, bos, source.options().dtype(torch::kInt64));
    auto done = torch::zeros({source.size(0)}, source.options().dtype(torch::kBool));
    for (int64_t t = 0; t < max_length; ++t) {
        // The whole prefix again each step (no incremental state): simple, and evaluation is not timed.
        auto logits = decode(prefix, memory, padding);      // (B, t + 1, V)
        auto token = logits.select(1, -1).argmax(-1, true); // (B, 1)
        prefix = torch::cat({prefix, token}, 1);
        done = done | token.squeeze(1).eq(eos);
        if (done.all().item<bool>()) break;
    }
    return prefix.narrow(1, 1, prefix.size(1) - 1);
}

torch::Tensor TransformerImpl::beamDecode(const torch::Tensor& source, const BeamOptions& options) {
    const auto memory = encode(source).repeat_interleave(options.beam, 0); // (B x K, S, D)
    const auto padding = source.eq(0).repeat_interleave(options.beam, 0);
    return beamSearch(
        source.size(0), options,
        [&](const torch::Tensor& prefixes, const torch::Tensor&) {
            return decode(prefixes, memory, padding).select(1, -1); // the whole prefix again, as greedy
        },
        source);
}

} // namespace scalebench
