// The AWD-LSTM language model: embedding, stacked LSTMs, tied decoder, embedding and locked dropout, weight
// drop.
#include "awd_lstm.h"

#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {

DecoderImpl::DecoderImpl(int64_t in, int64_t out, bool own_weight) {
    if (own_weight) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(in));
        weight = register_parameter("weight", torch::empty({out, in}).uniform_(-bound, bound));
    }
    bias = register_parameter("bias", torch::zeros({out}));
}

AwdLstmImpl::AwdLstmImpl(const AwdLstmOptions& o) : options_(o) {
    if (o.vocabulary < 1 || o.embedding < 1 || o.hidden < 1 || o.layers < 1)
        throw std::invalid_argument("AWD-LSTM: vocabulary, sizes and layers must be positive");
    encoder = register_module("encoder", torch::nn::Embedding(o.vocabulary, o.embedding));
    {
        torch::NoGradGuard no_grad;
        encoder->weight.uniform_(-0.1, 0.1); // AWD-LSTM's init_weights
    }
    for (int64_t l = 0; l < o.layers; ++l)
        rnns->push_back(torch::nn::LSTM(
            torch::nn::LSTMOptions(l == 0 ? o.embedding : o.hidden, layerWidth(l)).num_layers(1)));
    register_module("rnns", rnns);
    decoder = register_module("decoder", Decoder(layerWidth(o.layers - 1), o.vocabulary, !o.tied));
}

int64_t AwdLstmImpl::layerWidth(int64_t l) const {
    return l == options_.layers - 1 && options_.tied ? options_.embedding : options_.hidden;
}

LstmState AwdLstmImpl::initialState(int64_t batch) const {
    LstmState state;
    const auto options = encoder->weight.options();
    for (int64_t l = 0; l < options_.layers; ++l)
        state.emplace_back(torch::zeros({1, batch, layerWidth(l)}, options),
                           torch::zeros({1, batch, layerWidth(l)}, options));
    return state;
}

torch::Tensor lockedDropout(const torch::Tensor& x, double p, bool training) {
    if (!training || p <= 0) return x;
    auto mask = torch::empty({1, x.size(1), x.size(2)}, x.options()).bernoulli_(1 - p).div_(1 - p);
    return x * mask; // mask: (1, B, H), the same for every time step
}

LanguageModelOutput AwdLstmImpl::forward(const torch::Tensor& tokens, const LstmState& state) {
    // Embedding dropout: whole rows (words) of the embedding zeroed, the rest scaled (AWD's
    // embedded_dropout).
    auto weight = encoder->weight; // (V, E)
    if (is_training() && options_.dropout_embedding > 0) {
        const double keep = 1 - options_.dropout_embedding;
        weight = weight * torch::empty({weight.size(0), 1}, weight.options()).bernoulli_(keep).div_(keep);
    }
    auto x = torch::embedding(weight, tokens); // (T, B, E)
    x = lockedDropout(x, options_.dropout_input, is_training());

    LanguageModelOutput out;
    for (int64_t l = 0; l < options_.layers; ++l) {
        auto* lstm = rnns[l]->as<torch::nn::LSTM>();
        const auto& layer_state = state.at(static_cast<std::size_t>(l));
        if (is_training() && options_.weight_drop > 0) {
            // Weight drop (AWD-LSTM's WeightDrop): the layer runs on a copy of its weights whose
            // hidden-to-hidden matrix (4 x width, width) has elements zeroed with probability weight_drop and
            // the rest scaled by 1 / (1 - weight_drop), one mask a batch; the gradient reaches the weights
            // through the mask.
            auto p = lstm->named_parameters(false);
            const std::vector<torch::Tensor> weights = {
                p["weight_ih_l0"], torch::dropout(p["weight_hh_l0"], options_.weight_drop, true),
                p["bias_ih_l0"], p["bias_hh_l0"]};
            auto [y, h, c] =
                torch::lstm(x, {std::get<0>(layer_state), std::get<1>(layer_state)}, weights,
                            /*has_biases=*/true, /*num_layers=*/1, /*dropout=*/0.0, /*train=*/true,
                            /*bidirectional=*/false, /*batch_first=*/false);
            out.state.emplace_back(h, c);
            x = y;
        } else {
            auto [y, hc] = lstm->forward(x, layer_state);
            out.state.push_back(hc);
            x = y; // (T, B, width of layer l)
        }
        if (l + 1 < options_.layers) x = lockedDropout(x, options_.dropout_hidden, is_training());
    }
    out.last_output = x;
    out.last_dropped = lockedDropout(x, options_.dropout, is_training());
    const auto& w = options_.tied ? encoder->weight : decoder->weight;
    out.logits = torch::linear(out.last_dropped, w, decoder->bias); // (T, B, V)
    return out;
}

} // namespace scalebench
