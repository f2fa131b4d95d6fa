// GNMT's and the Transformer's teacher-forced logits and label-smoothed loss equal PyTorch's from the same
// weights (tests/fixtures/make_translation.py), and greedy decoding and the parallel batches behave.
#include "gnmt.h"
#include "label_smoothing.h"
#include "model_fixture.h"
#include "parallel_text.h"
#include "transformer.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("GNMT computes PyTorch's teacher-forced logits and loss from the same weights", "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/gnmt_tiny.json");
    GnmtOptions o;
    o.vocabulary = fixture.config["vocabulary"];
    o.hidden = fixture.config["hidden"];
    o.layers = fixture.config["layers"];
    Gnmt model(o);
    loadFixtureState(*model, fixture);
    model->eval(); // dropout off
    torch::NoGradGuard no_grad;
    const auto logits = model->forward(fixture.inputs.at("source"), fixture.inputs.at("source_lengths"),
                                       fixture.inputs.at("target_in"));
    checkFixtureOutput(logits, fixture, "logits");
    const auto loss = labelSmoothedLoss(logits, fixture.inputs.at("target_out"), 0.1, Vocabulary::kPad);
    checkFixtureOutput(loss.reshape({1}), fixture, "loss");
}

TEST_CASE("the Transformer computes PyTorch's teacher-forced logits and loss from the same weights",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/transformer_tiny.json");
    TransformerOptions o;
    o.vocabulary = fixture.config["vocabulary"];
    o.model = fixture.config["model"];
    o.heads = fixture.config["heads"];
    o.ffn = fixture.config["ffn"];
    o.layers = fixture.config["layers"];
    Transformer model(o);
    loadFixtureState(*model, fixture);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto logits = model->forward(fixture.inputs.at("source"), fixture.inputs.at("target_in"));
    checkFixtureOutput(logits, fixture, "logits");
    const auto loss = labelSmoothedLoss(logits, fixture.inputs.at("target_out"), 0.1, Vocabulary::kPad);
    checkFixtureOutput(loss.reshape({1}), fixture, "loss");
}

TEST_CASE("greedy decoding feeds each chosen token back and matches teacher forcing on its own output",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/transformer_tiny.json");
    TransformerOptions o;
    o.vocabulary = 16, o.model = 8, o.heads = 2, o.ffn = 16, o.layers = 2;
    Transformer transformer(o);
    loadFixtureState(*transformer, fixture);
    transformer->eval();
    GnmtOptions g;
    g.vocabulary = 16, g.hidden = 8, g.layers = 4;
    Gnmt gnmt(g);
    loadFixtureState(*gnmt, loadModelFixture(SCALEBENCH_FIXTURES_DIR "/gnmt_tiny.json"));
    gnmt->eval();
    torch::NoGradGuard no_grad;
    const auto source = fixture.inputs.at("source"), lengths = fixture.inputs.at("source_lengths");
    for (int which = 0; which < 2; ++which) {
        const auto decoded = which == 0
                                 ? transformer->greedyDecode(source, 6, Vocabulary::kBos, Vocabulary::kEos)
                                 : gnmt->greedyDecode(source, lengths, 6, Vocabulary::kBos, Vocabulary::kEos);
        REQUIRE(decoded.size(0) == 3);
        CHECK(decoded.size(1) <= 6);
        // Teacher forcing on <s> + the decoded tokens picks the same tokens.
        const auto prefix = torch::cat({torch::full({3, 1}, Vocabulary::kBos, torch::kInt64), decoded}, 1)
                                .narrow(1, 0, decoded.size(1));
        const auto logits =
            which == 0 ? transformer->forward(source, prefix) : gnmt->forward(source, lengths, prefix);
        CHECK(torch::equal(logits.argmax(-1), decoded));
    }
}

TEST_CASE("a parallel batch pads sources with their end token and shifts targets by the start token",
          "[models]") {
    SentencePairs pairs;
    pairs.sources = {{5, 6, 7}, {8}};
    pairs.targets = {{9}, {10, 11}};
    pairs.references = pairs.targets;
    const ParallelBatch b = makeParallelBatch(pairs, {0, 1});
    CHECK(torch::equal(b.source, torch::tensor({5, 6, 7, 3, 8, 3, 0, 0}, torch::kInt64).view({2, 4})));
    CHECK(torch::equal(b.source_lengths, torch::tensor({4, 2}, torch::kInt64)));
    CHECK(torch::equal(b.target_in, torch::tensor({2, 9, 0, 2, 10, 11}, torch::kInt64).view({2, 3})));
    CHECK(torch::equal(b.target_out, torch::tensor({9, 3, 0, 10, 11, 3}, torch::kInt64).view({2, 3})));
    CHECK(b.target_tokens == 5);
}

TEST_CASE("the synthetic language pair maps every word through one fixed permutation", "[models]") {
    const Vocabulary v = Vocabulary::synthetic(20);
    CHECK(v.size() == 24);
    const SentencePairs a = syntheticParallel(v, 50, 3, 8, 1), b = syntheticParallel(v, 50, 3, 8, 2);
    std::map<int64_t, int64_t> mapping;
    for (const auto* pairs : {&a, &b})
        for (int64_t i = 0; i < pairs->size(); ++i) {
            const auto& s = pairs->sources[static_cast<std::size_t>(i)];
            const auto& t = pairs->targets[static_cast<std::size_t>(i)];
            REQUIRE(s.size() == t.size());
            CHECK(s.size() >= 3);
            CHECK(s.size() <= 8);
            for (std::size_t k = 0; k < s.size(); ++k) {
                CHECK(s[k] >= 4);
                const auto [it, fresh] = mapping.emplace(s[k], t[k]);
                CHECK(it->second == t[k]);
            }
        }
    CHECK(a.sources != b.sources); // the seed chooses the sentences, not the language
}
