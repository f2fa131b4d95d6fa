// The Llama decoder's and the BERT encoder's forward passes equal PyTorch's from the same weights
// (tests/fixtures/make_llm.py), and the LAMB optimizer takes the step of its definition.
#include "bert.h"
#include "lamb.h"
#include "llama.h"
#include "model_fixture.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a tiny Llama computes PyTorch's logits from the same weights and tokens", "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/llama_tiny.json");
    const auto& c = fixture.config;
    Llama model(DecoderShape{c["layers"], c["hidden"], c["heads"], c["kv_heads"], c["ffn"], c["vocab"]});
    loadFixtureState(*model, fixture);
    torch::NoGradGuard no_grad;
    const auto logits = model->forward(fixture.inputs.at("tokens")); // (2, 16, 64)
    checkFixtureOutput(logits, fixture, "logits");

    // Causal: the first 8 tokens' logits do not depend on the last 8.
    auto changed = fixture.inputs.at("tokens").clone();
    changed.narrow(1, 8, 8).fill_(0);
    const auto prefix = model->forward(changed).narrow(1, 0, 8);
    CHECK(maxAbsDifference(prefix, logits.narrow(1, 0, 8)) <= fixture.tolerance);
}

TEST_CASE("a tiny BERT computes PyTorch's masked-LM logits from the same weights and tokens", "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/bert_tiny.json");
    const auto& c = fixture.config;
    BertShape shape = bertPresetShape("tiny");
    shape.layers = c["layers"];
    shape.hidden = c["hidden"];
    shape.heads = c["heads"];
    shape.ffn = c["ffn"];
    shape.vocab = c["vocab"];
    shape.max_positions = c["max_positions"];
    BertForMaskedLM model(shape);
    loadFixtureState(*model, fixture);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto logits = model->forward(fixture.inputs.at("tokens"));
    checkFixtureOutput(logits, fixture, "logits");
}

namespace {
int64_t parameterCount(const torch::nn::Module& model) {
    int64_t count = 0;
    for (const auto& p : model.parameters())
        count += p.numel();
    return count;
}
} // namespace

TEST_CASE("the model presets have the published parameter counts", "[models][slow]") {
    // BERT-large as the engine builds it: 335,174,458, the MLPerf reference's count (with the MLM head's
    // transform and output bias; 1.3 GB of fp32).
    CHECK(parameterCount(*BertForMaskedLM(bertPresetShape("large"))) == 335174458);
    CHECK_THROWS_WITH(bertPresetShape("base"), Catch::Contains("'base'") && Catch::Contains("large, tiny"));
    // tiny: embeddings 64x32 + 64x32 + 2x32 + 64; 2 layers of 4 x (32x32+32) + 32x64+64 + 64x32+32 + 4x32;
    // head 32x32+32 + 64 + 64.
    CHECK(parameterCount(*BertForMaskedLM(bertPresetShape("tiny"))) ==
          (2048 + 2048 + 64 + 64) + 2 * (4 * 1056 + 2112 + 2080 + 128) + (1056 + 64 + 64));

    // Llama 2 7B: 6,738,415,616 parameters (Meta's release). All 32 layers are 27 GB of fp32, so the model is
    // built with 1 and with 2 of its layers: every layer has the same shape, so the count extrapolates
    // exactly.
    DecoderShape shape = llamaPresetShape("7b");
    REQUIRE(shape.layers == 32);
    shape.layers = 1;
    const int64_t one_layer = parameterCount(*Llama(shape));
    shape.layers = 2;
    const int64_t two_layers = parameterCount(*Llama(shape));
    CHECK(one_layer + 31 * (two_layers - one_layer) == 6738415616);
}

TEST_CASE("LAMB scales the Adam step of each tensor by the ratio of its norm to the step's norm",
          "[models]") {
    auto p = torch::tensor({3.0, 4.0}).requires_grad_(); // |p| = 5
    Lamb lamb(std::vector<torch::Tensor>{p}, LambOptions(0.1).betas({0.9, 0.999}).eps(0).weight_decay(0));
    p.mutable_grad() = torch::tensor({1.0, -2.0});
    lamb.step();
    // First step with bias correction: m_hat = g, v_hat = g^2, update = sign(g) = (1, -1), |update| = sqrt 2;
    // trust ratio 5 / sqrt 2; p -= 0.1 x 5 / sqrt 2 x (1, -1).
    const double moved = 0.1 * 5 / std::sqrt(2.0);
    CHECK(p[0].item<double>() == Approx(3 - moved));
    CHECK(p[1].item<double>() == Approx(4 + moved));

    // Weight decay joins the update before the trust ratio: update = sign(g) + wd x p.
    auto q = torch::tensor({1.0, 0.0}).requires_grad_();
    Lamb decayed(std::vector<torch::Tensor>{q}, LambOptions(1.0).eps(1e-12).weight_decay(0.5));
    q.mutable_grad() = torch::tensor({0.0, 1.0});
    decayed.step();
    // update = (0 + 0.5, 1 + 0) = (0.5, 1); |update| = sqrt 1.25; ratio 1 / sqrt 1.25.
    const double ratio = 1 / std::sqrt(1.25);
    CHECK(q[0].item<double>() == Approx(1 - ratio * 0.5));
    CHECK(q[1].item<double>() == Approx(0 - ratio * 1.0));
}
