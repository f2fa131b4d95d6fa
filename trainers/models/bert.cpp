// A post-LN BERT encoder with the masked-LM head (decoder tied to the word embeddings).
#include "bert.h"

#include <stdexcept>

namespace scalebench {

BertShape bertPresetShape(const std::string& preset) {
    if (preset == "large" || preset.empty()) return {};
    // tiny: init_std 0.1 keeps BERT-large's gain per matrix (std x sqrt(hidden): 0.02 x 32 = 0.64, 0.1 x
    // sqrt(32) = 0.57). With 0.02 at hidden 32 (gain 0.11) the attention path (value, output) starts at about
    // 1% of the residual, and LAMB's relative steps need hundreds of steps to grow it: the masked-LM loss
    // stayed at ln 60 (the unigram) for 200 steps at lr 0.01, and a larger lr collapsed the representation
    // instead.
    if (preset == "tiny") return {2, 32, 4, 64, 64, 64, 2, 0.1, 1e-12, 0.1};
    throw std::invalid_argument("--preset: bert has no preset '" + preset + "' (known: large, tiny)");
}

BertEmbeddingsImpl::BertEmbeddingsImpl(const BertShape& s) {
    word_embeddings = register_module("word_embeddings", torch::nn::Embedding(s.vocab, s.hidden));
    position_embeddings =
        register_module("position_embeddings", torch::nn::Embedding(s.max_positions, s.hidden));
    token_type_embeddings =
        register_module("token_type_embeddings", torch::nn::Embedding(s.token_types, s.hidden));
    layer_norm = register_module(
        "layer_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.hidden}).eps(s.norm_eps)));
    dropout = register_module("dropout", torch::nn::Dropout(s.dropout));
}

torch::Tensor BertEmbeddingsImpl::forward(const torch::Tensor& tokens) {
    const int64_t T = tokens.size(1);
    const auto positions = torch::arange(T, tokens.options()); // (T)
    auto x = word_embeddings->forward(tokens) + position_embeddings->forward(positions) +
             token_type_embeddings->weight[0]; // (B, T, hidden)
    return dropout->forward(layer_norm->forward(x));
}

BertLayerImpl::BertLayerImpl(const BertShape& s) : heads_(s.heads), attention_dropout_(s.dropout) {
    if (s.hidden % s.heads != 0)
        throw std::invalid_argument("bert: hidden " + std::to_string(s.hidden) + " is not a multiple of " +
                                    std::to_string(s.heads) + " heads");
    const auto norm = [&] {
        return torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.hidden}).eps(s.norm_eps));
    };
    query = register_module("query", torch::nn::Linear(s.hidden, s.hidden));
    key = register_module("key", torch::nn::Linear(s.hidden, s.hidden));
    value = register_module("value", torch::nn::Linear(s.hidden, s.hidden));
    attention_output = register_module("attention_output", torch::nn::Linear(s.hidden, s.hidden));
    attention_norm = register_module("attention_norm", norm());
    intermediate = register_module("intermediate", torch::nn::Linear(s.hidden, s.ffn));
    output = register_module("output", torch::nn::Linear(s.ffn, s.hidden));
    output_norm = register_module("output_norm", norm());
    dropout = register_module("dropout", torch::nn::Dropout(s.dropout));
}

torch::Tensor BertLayerImpl::forward(const torch::Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2), d = C / heads_;
    const auto split = [&](const torch::Tensor& t) { return t.view({B, T, heads_, d}).transpose(1, 2); };
    const auto y = torch::scaled_dot_product_attention(
        split(query->forward(x)), split(key->forward(x)), split(value->forward(x)), {},
        is_training() ? attention_dropout_ : 0.0); // (B, H, T, d)
    const auto a = attention_norm->forward(
        x + dropout->forward(attention_output->forward(y.transpose(1, 2).reshape({B, T, C}))));
    const auto m = output->forward(torch::gelu(intermediate->forward(a))); // exact (erf) GELU
    return output_norm->forward(a + dropout->forward(m));
}

BertForMaskedLMImpl::BertForMaskedLMImpl(const BertShape& s) : shape_(s) {
    embeddings = register_module("embeddings", BertEmbeddings(s));
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < s.layers; ++i)
        layers->push_back(BertLayer(s));
    head_transform = register_module("head_transform", torch::nn::Linear(s.hidden, s.hidden));
    head_norm = register_module(
        "head_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.hidden}).eps(s.norm_eps)));
    head_bias = register_parameter("head_bias", torch::zeros({s.vocab}));
    // BERT's initialisation: truncated normal(0, init_std) for matrices and embeddings (plain normal here),
    // zero biases, LayerNorm 1 and 0.
    torch::NoGradGuard no_grad;
    for (auto& p : named_parameters()) {
        if (p.value().dim() >= 2)
            p.value().normal_(0, s.init_std);
        else if (p.key().find("norm") == std::string::npos)
            p.value().zero_();
    }
}

torch::Tensor BertForMaskedLMImpl::forward(const torch::Tensor& tokens) {
    if (tokens.size(1) > shape_.max_positions)
        throw std::invalid_argument("bert: sequences of " + std::to_string(tokens.size(1)) +
                                    " tokens, but only " + std::to_string(shape_.max_positions) +
                                    " positions");
    auto h = embeddings->forward(tokens); // (B, T, hidden)
    for (const auto& layer : *layers)
        h = layer->as<BertLayer>()->forward(h);
    h = head_norm->forward(torch::gelu(head_transform->forward(h)));
    return torch::nn::functional::linear(h, embeddings->word_embeddings->weight, head_bias); // (B, T, vocab)
}

} // namespace scalebench
