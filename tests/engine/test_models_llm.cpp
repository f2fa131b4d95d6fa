// The Llama decoder's and the BERT encoder's forward passes equal PyTorch's from the same weights
// (tests/fixtures/make_llm.py); the fused kernels (RMSNorm, rotary tables, AdamW, clipping) equal the plain
// formulas; the LAMB optimizer takes the step of its definition.
#include "bert.h"
#include "fused_adamw.h"
#include "gradient_clipping.h"
#include "lamb.h"
#include "llama.h"
#include "model_fixture.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a tiny Llama computes PyTorch's logits from the same weights and tokens", "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/llama_tiny.json");
    const auto& c = fixture.config;
    Llama model(DecoderShape{c["layers"], c["hidden"], c["heads"], c["kv_heads"], c["ffn"], c["vocab"]});
    ModelFixture fused = fixture; // the fixture's state is in Meta's names: wq, wk, wv, w1, w3
    fused.state = llamaStateFromMeta(fixture.state, c["layers"]);
    loadFixtureState(*model, fused);
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

TEST_CASE("Meta's wq, wk, wv and w1, w3 become the fused wqkv and w13, and a missing one is named",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/llama_tiny.json");
    const auto fused = llamaStateFromMeta(fixture.state, 2);
    const auto& wq = fixture.state.at("layers.1.attention.wq.weight");
    const auto& wqkv = fused.at("layers.1.attention.wqkv.weight");
    CHECK(wqkv.size(0) == wq.size(0) + 2 * fixture.state.at("layers.1.attention.wk.weight").size(0));
    CHECK(torch::equal(wqkv.narrow(0, 0, wq.size(0)), wq));
    CHECK(torch::equal(fused.at("layers.0.feed_forward.w13.weight").narrow(0, 64, 64),
                       fixture.state.at("layers.0.feed_forward.w3.weight")));
    CHECK_FALSE(fused.count("layers.0.attention.wk.weight"));
    auto partial = fixture.state;
    partial.erase("layers.1.feed_forward.w3.weight");
    CHECK_THROWS_WITH(llamaStateFromMeta(partial, 2), Catch::Contains("'layers.1.feed_forward.w3.weight'"));
}

TEST_CASE("RMSNorm's fused kernel equals x / sqrt(mean(x^2) + eps) x weight", "[models]") {
    torch::manual_seed(3);
    RMSNorm norm(48, 1e-5);
    {
        torch::NoGradGuard no_grad;
        norm->weight.uniform_(0.5, 1.5);
    }
    const auto x = torch::randn({3, 5, 48}) * 4;
    const auto plain = x * torch::rsqrt(x.pow(2).mean(-1, true) + 1e-5) * norm->weight;
    CHECK(maxAbsDifference(norm->forward(x), plain) < 1e-5);
}

TEST_CASE("the cached rotary tables rotate queries and keys as the reference formula does", "[models]") {
    torch::manual_seed(4);
    RotaryEmbedding rotary(16, 10000);
    const auto x = torch::randn({2, 7, 3, 16}); // (B, T, heads, d)
    const auto reference = applyRotaryEmbedding(x.transpose(1, 2), 10000).transpose(1, 2);
    CHECK(maxAbsDifference(rotary.apply(x), reference) < 1e-5);
    // A second length gets tables of its own; the first length's are still right.
    const auto shorter = x.narrow(1, 0, 4);
    CHECK(maxAbsDifference(rotary.apply(shorter), reference.narrow(1, 0, 4)) < 1e-5);
    CHECK(maxAbsDifference(rotary.apply(x), reference) < 1e-5);
}

namespace {
// Three tensors of the shapes a model has (a matrix, a vector, a scalar-like), with gradients.
std::vector<torch::Tensor> someParameters(uint64_t seed) {
    torch::manual_seed(seed);
    std::vector<torch::Tensor> params{torch::randn({6, 5}), torch::randn({5}), torch::randn({1})};
    for (auto& p : params) {
        p.requires_grad_();
        p.mutable_grad() = torch::randn_like(p);
    }
    return params;
}
} // namespace

TEST_CASE("fused AdamW takes LibTorch AdamW's steps and keeps its checkpoint format", "[models]") {
    auto fused_params = someParameters(5), plain_params = someParameters(5);
    const auto options = torch::optim::AdamWOptions(1e-2).betas({0.9, 0.95}).eps(1e-5).weight_decay(0.1);
    FusedAdamW fused({torch::optim::OptimizerParamGroup(fused_params)}, options);
    torch::optim::AdamW plain({torch::optim::OptimizerParamGroup(plain_params)}, options);
    for (int step = 0; step < 4; ++step) {
        fused.step();
        plain.step();
        for (std::size_t i = 0; i < fused_params.size(); ++i) {
            INFO("step " << step << ", tensor " << i);
            CHECK(maxAbsDifference(fused_params[i], plain_params[i]) < 1e-6);
        }
    }
    // The plain formula at step 1 for one element: p(1 - lr wd) - lr m^ / (sqrt(v^) + eps), m^ = g, v^ = g^2.
    auto one = someParameters(6);
    const double p0 = one[0][0][0].item<double>(), g = one[0].grad()[0][0].item<double>();
    FusedAdamW single({torch::optim::OptimizerParamGroup(one)}, options);
    single.step();
    CHECK(one[0][0][0].item<double>() ==
          Approx(p0 * (1 - 1e-3) - 1e-2 * g / (std::abs(g) + 1e-5)).epsilon(1e-5));

    // A checkpoint of either optimizer loads into the other and continues alike.
    std::stringstream saved;
    {
        torch::serialize::OutputArchive archive;
        fused.save(archive);
        archive.save_to(saved);
    }
    auto resumed_params = someParameters(7);
    for (std::size_t i = 0; i < resumed_params.size(); ++i) {
        torch::NoGradGuard no_grad;
        resumed_params[i].copy_(fused_params[i]);
        resumed_params[i].mutable_grad() = fused_params[i].grad().clone();
    }
    torch::optim::AdamW resumed({torch::optim::OptimizerParamGroup(resumed_params)}, options);
    torch::serialize::InputArchive archive;
    archive.load_from(saved);
    resumed.load(archive);
    fused.step();
    resumed.step();
    for (std::size_t i = 0; i < fused_params.size(); ++i)
        CHECK(maxAbsDifference(fused_params[i], resumed_params[i]) < 1e-6);
}

TEST_CASE("clipping scales the gradients to the norm LibTorch's clip_grad_norm_ gives, and leaves small ones",
          "[models]") {
    auto clipped = someParameters(8), reference = someParameters(8);
    const auto total = clipGradNorm(clipped, 1.0);
    const double expected = torch::nn::utils::clip_grad_norm_(reference, 1.0);
    CHECK(total.item<double>() == Approx(expected).epsilon(1e-6));
    double norm_after = 0;
    for (std::size_t i = 0; i < clipped.size(); ++i) {
        CHECK(maxAbsDifference(clipped[i].grad(), reference[i].grad()) < 1e-6);
        norm_after += clipped[i].grad().pow(2).sum().item<double>();
    }
    CHECK(std::sqrt(norm_after) == Approx(1.0).epsilon(1e-5));

    auto small = someParameters(9);
    const auto before = small[0].grad().clone();
    clipGradNorm(small, 1e6);
    CHECK(torch::equal(small[0].grad(), before));
}
