// A BERT encoder (Devlin et al. 2019) with its masked-LM head: word + learned position + token-type
// embeddings, post-LN blocks (attention -> add -> LayerNorm, GELU MLP -> add -> LayerNorm), the MLM head's
// transform and a decoder tied to the word embeddings. Parameter names are this project's own (listed in
// tests/fixtures/make_llm.py); no next-sentence head (the benchmark's metric is masked-LM accuracy).
#pragma once

#include <torch/torch.h>

namespace scalebench {

struct BertShape {
    int64_t layers = 24, hidden = 1024, heads = 16, ffn = 4096, vocab = 30522, max_positions = 512;
    int64_t token_types = 2;
    double dropout = 0.1;    // hidden and attention-probability dropout (training mode only)
    double norm_eps = 1e-12; // LayerNorm epsilon of BERT's reference
    // Standard deviation of the matrices and embeddings at initialisation (BERT's initializer_range, 0.02 for
    // hidden 1024). LAMB changes each tensor by about lr x |w| a step, so this also sets how fast they move.
    double init_std = 0.02;
};

// "large" (BERT-large, MLPerf) or "tiny" (tests); throws std::invalid_argument naming the preset.
BertShape bertPresetShape(const std::string& preset);

class BertEmbeddingsImpl : public torch::nn::Module {
  public:
    explicit BertEmbeddingsImpl(const BertShape& shape);
    torch::Tensor forward(const torch::Tensor& tokens); // (B, T) -> (B, T, hidden); token type 0 everywhere
    torch::nn::Embedding word_embeddings{nullptr}, position_embeddings{nullptr},
        token_type_embeddings{nullptr};
    torch::nn::LayerNorm layer_norm{nullptr};
    torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertEmbeddings);

class BertLayerImpl : public torch::nn::Module {
  public:
    explicit BertLayerImpl(const BertShape& shape);
    torch::Tensor forward(const torch::Tensor& x); // (B, T, hidden), bidirectional (no mask: no padding)
    torch::nn::Linear query{nullptr}, key{nullptr}, value{nullptr}, attention_output{nullptr};
    torch::nn::LayerNorm attention_norm{nullptr};
    torch::nn::Linear intermediate{nullptr}, output{nullptr};
    torch::nn::LayerNorm output_norm{nullptr};
    torch::nn::Dropout dropout{nullptr};

  private:
    int64_t heads_;
    double attention_dropout_;
};
TORCH_MODULE(BertLayer);

class BertForMaskedLMImpl : public torch::nn::Module {
  public:
    explicit BertForMaskedLMImpl(const BertShape& shape);
    torch::Tensor forward(const torch::Tensor& tokens); // (B, T) int64 -> MLM logits (B, T, vocab)
    const BertShape& shape() const { return shape_; }

    BertEmbeddings embeddings{nullptr};
    torch::nn::ModuleList layers;
    torch::nn::Linear head_transform{nullptr}; // dense + GELU + LayerNorm, then the tied decoder
    torch::nn::LayerNorm head_norm{nullptr};
    torch::Tensor head_bias; // (vocab)

  private:
    BertShape shape_;
};
TORCH_MODULE(BertForMaskedLM);

} // namespace scalebench
