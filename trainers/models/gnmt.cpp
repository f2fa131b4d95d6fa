// GNMT for MLBench task 4a: residual LSTM encoder and decoder with normalized Bahdanau attention.
#include "gnmt.h"

#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

constexpr double kInitWeight = 0.1; // MLPerf GNMT: every weight uniform in [-0.1, 0.1]

torch::nn::LSTM lstm(int64_t in, int64_t hidden, bool bidirectional = false) {
    return torch::nn::LSTM(torch::nn::LSTMOptions(in, hidden).batch_first(true).bidirectional(bidirectional));
}

} // namespace

BahdanauAttentionImpl::BahdanauAttentionImpl(int64_t units) {
    linear_q =
        register_module("linear_q", torch::nn::Linear(torch::nn::LinearOptions(units, units).bias(false)));
    linear_k =
        register_module("linear_k", torch::nn::Linear(torch::nn::LinearOptions(units, units).bias(false)));
    linear_att = register_parameter("linear_att", torch::empty({units}).uniform_(-kInitWeight, kInitWeight));
    normalize_scalar =
        register_parameter("normalize_scalar", torch::full({1}, 1.0 / std::sqrt(static_cast<double>(units))));
    normalize_bias = register_parameter("normalize_bias", torch::zeros({units}));
}

torch::Tensor BahdanauAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& keys,
                                             const torch::Tensor& padding) {
    auto q = linear_q->forward(query).unsqueeze(2);              // (B, Tq, 1, H)
    auto k = linear_k->forward(keys).unsqueeze(1);               // (B, 1, S, H)
    auto v = linear_att / linear_att.norm() * normalize_scalar;  // (H)
    auto scores = torch::tanh(q + k + normalize_bias).matmul(v); // (B, Tq, S)
    scores = scores.masked_fill(padding.unsqueeze(1), -65504.0); // MLPerf's fp16-safe fill
    return torch::bmm(torch::softmax(scores, -1), keys);         // (B, Tq, H)
}

RecurrentAttentionImpl::RecurrentAttentionImpl(int64_t hidden) {
    rnn = register_module("rnn", lstm(hidden, hidden));
    attn = register_module("attn", BahdanauAttention(hidden));
}

GnmtImpl::GnmtImpl(const GnmtOptions& o) : options_(o) {
    if (o.layers < 2)
        throw std::invalid_argument("GNMT needs at least 2 layers, got " + std::to_string(o.layers));
    const int64_t h = o.hidden;
    embedder = register_module(
        "embedder", torch::nn::Embedding(torch::nn::EmbeddingOptions(o.vocabulary, h).padding_idx(0)));
    encoder_layers = register_module("encoder_layers", torch::nn::ModuleList());
    encoder_layers->push_back(lstm(h, h, true)); // bidirectional
    encoder_layers->push_back(lstm(2 * h, h));
    for (int64_t i = 2; i < o.layers; ++i)
        encoder_layers->push_back(lstm(h, h));
    att_rnn = register_module("att_rnn", RecurrentAttention(h));
    decoder_layers = register_module("decoder_layers", torch::nn::ModuleList());
    for (int64_t i = 1; i < o.layers; ++i)
        decoder_layers->push_back(lstm(2 * h, h)); // input: the layer below and the attention context
    classifier = register_module("classifier", torch::nn::Linear(h, o.vocabulary));
    dropout_ = register_module("dropout", torch::nn::Dropout(o.dropout));

    torch::NoGradGuard no_grad;
    for (auto& p : named_parameters()) {
        if (p.key().find("normalize_") != std::string::npos) continue;
        if (p.key().find("bias_hh") != std::string::npos)
            p.value().zero_();
        else
            p.value().uniform_(-kInitWeight, kInitWeight);
    }
    embedder->weight[0].zero_(); // <pad>
}

torch::Tensor GnmtImpl::encode(const torch::Tensor& source, const torch::Tensor& source_lengths) {
    namespace rnn = torch::nn::utils::rnn;
    auto x = dropout_->forward(embedder->forward(source)); // (B, S, H)
    // The bidirectional layer reads each sentence to its own end, not into the padding.
    auto packed =
        rnn::pack_padded_sequence(x, source_lengths.to(torch::kCPU), /*batch_first=*/true,
                                  /*enforce_sorted=*/false); // lengths on the host, as packing wants them
    auto first = encoder_layers[0]->as<torch::nn::LSTM>()->forward_with_packed_input(packed);
    x = std::get<0>(rnn::pad_packed_sequence(std::get<0>(first), true, 0.0, source.size(1))); // (B, S, 2H)
    x = dropout_->forward(x);
    x = std::get<0>(encoder_layers[1]->as<torch::nn::LSTM>()->forward(x)); // (B, S, H)
    for (std::size_t i = 2; i < encoder_layers->size(); ++i) {
        auto residual = x;
        x = std::get<0>(encoder_layers[i]->as<torch::nn::LSTM>()->forward(dropout_->forward(x))) + residual;
    }
    return x;
}

torch::Tensor GnmtImpl::decode(const torch::Tensor& embedded, const torch::Tensor& context,
                               const torch::Tensor& padding, State& state) {
    const bool fresh = state.empty();
    state.resize(1 + decoder_layers->size());
    auto run = [&](torch::nn::LSTM& layer, const torch::Tensor& input, std::size_t i) {
        auto [out, hc] = fresh ? layer->forward(input) : layer->forward(input, state[i]);
        state[i] = hc;
        return out;
    };
    auto x = run(att_rnn->rnn, dropout_->forward(embedded), 0);   // (B, T, H)
    auto attention = att_rnn->attn->forward(x, context, padding); // (B, T, H)
    for (std::size_t i = 0; i < decoder_layers->size(); ++i) {
        torch::nn::LSTM lstm_layer(decoder_layers->ptr<torch::nn::LSTMImpl>(i));
        auto out = run(lstm_layer, dropout_->forward(torch::cat({x, attention}, 2)), i + 1);
        x = i == 0 ? out : out + x; // residual from the decoder's third layer on
    }
    return classifier->forward(x); // (B, T, V)
}

torch::Tensor GnmtImpl::forward(const torch::Tensor& source, const torch::Tensor& source_lengths,
                                const torch::Tensor& target_in) {
    const auto context = encode(source, source_lengths);
    State state;
    return decode(embedder->forward(target_in), context, source.eq(0), state);
}

torch::Tensor GnmtImpl::greedyDecode(const torch::Tensor& source, const torch::Tensor& source_lengths,
                                     int64_t max_length, int64_t bos, int64_t eos) {
    const auto context = encode(source, source_lengths);
    const auto padding = source.eq(0);
    State state;
    auto token = torch::full({source.size(0), 1}, bos, source.options().dtype(torch::kInt64));
    auto done = torch::zeros({source.size(0)}, source.options().dtype(torch::kBool));
    std::vector<torch::Tensor> out;
    for (int64_t t = 0; t < max_length; ++t) {
        auto logits = decode(embedder->forward(token), context, padding, state); // (B, 1, V)
        token = logits.argmax(-1);                                               // (B, 1)
        out.push_back(token);
        done = done | token.squeeze(1).eq(eos);
        if (done.all().item<bool>()) break;
    }
    return torch::cat(out, 1);
}

torch::Tensor GnmtImpl::beamDecode(const torch::Tensor& source, const torch::Tensor& source_lengths,
                                   const BeamOptions& options) {
    const auto context = encode(source, source_lengths).repeat_interleave(options.beam, 0); // (B x K, S, H)
    const auto padding = source.eq(0).repeat_interleave(options.beam, 0);
    State state;
    return beamSearch(
        source.size(0), options,
        [&](const torch::Tensor& prefixes, const torch::Tensor& reorder) {
            for (auto& [h, c] : state) { // (1, B x K, H): each beam takes its parent's state
                h = h.index_select(1, reorder);
                c = c.index_select(1, reorder);
            }
            const auto last = prefixes.narrow(1, prefixes.size(1) - 1, 1); // (B x K, 1)
            return decode(embedder->forward(last), context, padding, state).select(1, 0);
        },
        source);
}

} // namespace scalebench
