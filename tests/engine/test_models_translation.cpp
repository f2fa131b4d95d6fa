// GNMT's and the Transformer's teacher-forced logits and label-smoothed loss equal PyTorch's from the same
// weights (tests/fixtures/make_translation.py), the fused attention equals the written-out softmax, and
// greedy and beam decoding and the parallel batches behave, and the Transformer's token normalisation gives
// the all-rank token mean's gradient.
#include "gnmt.h"
#include "label_smoothing.h"
#include "model_fixture.h"
#include "parallel_text.h"
#include "transformer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

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

namespace {

// The Transformer's attention written out: softmax(q k^T / sqrt(dh)) v with -inf at padded keys and, causal,
// at keys after query i + Tk - Tq; NaN for a query that may attend to no key. (B, Tq, D)
torch::Tensor explicitAttention(MultiheadAttentionImpl& a, const torch::Tensor& query,
                                const torch::Tensor& kv, const torch::Tensor& key_padding, bool causal,
                                int64_t heads) {
    const int64_t b = query.size(0), tq = query.size(1), tk = kv.size(1), d = query.size(2), dh = d / heads;
    auto split = [&](const torch::Tensor& x, int64_t t) { return x.view({b, t, heads, dh}).transpose(1, 2); };
    const auto q = split(a.q_proj->forward(query), tq), k = split(a.k_proj->forward(kv), tk),
               v = split(a.v_proj->forward(kv), tk);
    auto scores = torch::matmul(q, k.transpose(2, 3)) / std::sqrt(static_cast<double>(dh)); // (B, h, Tq, Tk)
    const double minus_infinity = -std::numeric_limits<double>::infinity();
    if (key_padding.defined()) scores = scores.masked_fill(key_padding.view({b, 1, 1, tk}), minus_infinity);
    if (causal)
        scores = scores.masked_fill(torch::ones({tq, tk}, torch::kBool).triu(1 + tk - tq), minus_infinity);
    const auto out = torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({b, tq, d});
    return a.out_proj->forward(out);
}

} // namespace

TEST_CASE("the Transformer's fused attention equals the written-out softmax with padding and causal masks",
          "[models]") {
    torch::manual_seed(7);
    const int64_t heads = 2, d = 8;
    MultiheadAttention attention(d, heads, 0.1);
    attention->eval(); // no attention dropout
    torch::NoGradGuard no_grad;
    // Key padding: the first sequence has none, the second its last two keys.
    auto padding_of = [](int64_t tk) {
        auto padding = torch::zeros({2, tk}, torch::kBool);
        padding.index_put_({1, torch::indexing::Slice(tk - 2, torch::indexing::None)}, true);
        return padding;
    };
    struct Case {
        int64_t tq, tk;
        bool padding, causal;
    };
    for (const Case c : {Case{5, 7, true, false},   // cross-attention over a padded source
                         Case{6, 6, true, false},   // the encoder's self-attention
                         Case{6, 6, false, true},   // the decoder's self-attention (sdpa's causal mask)
                         Case{4, 7, false, true},   // causal with Tq < Tk: the last query sees every key
                         Case{4, 7, true, true}}) { // both masks
        INFO("Tq " << c.tq << " Tk " << c.tk << " padding " << c.padding << " causal " << c.causal);
        const auto query = torch::randn({2, c.tq, d}), kv = torch::randn({2, c.tk, d});
        const auto padding = c.padding ? padding_of(c.tk) : torch::Tensor();
        const auto fused = attention->forward(query, kv, padding, c.causal);
        const auto expected = explicitAttention(*attention, query, kv, padding, c.causal, heads);
        REQUIRE(fused.sizes() == expected.sizes());
        CHECK(torch::allclose(fused, expected, 1e-5, 1e-6));
    }
}

TEST_CASE("a query with no key to attend to gives NaN, as the softmax over -inf did", "[models]") {
    torch::manual_seed(8);
    MultiheadAttention attention(8, 2, 0.0);
    attention->eval();
    torch::NoGradGuard no_grad;
    const auto query = torch::randn({2, 3, 8}), kv = torch::randn({2, 4, 8});
    auto padding = torch::zeros({2, 4}, torch::kBool);
    padding[1].fill_(true); // the second source is all padding
    const auto out = attention->forward(query, kv, padding, false);
    CHECK(torch::isnan(out[1]).all().item<bool>());
    CHECK_FALSE(torch::isnan(out[0]).any().item<bool>());
    // Causal with Tq > Tk: the first Tq - Tk queries come before every key.
    const auto six = torch::randn({2, 6, 8});
    const auto early = attention->forward(six, kv, {}, true); // (2, 6, 8)
    CHECK(torch::isnan(early.narrow(1, 0, 2)).all().item<bool>());
    const auto expected = explicitAttention(*attention, six, kv, {}, true, 2);
    CHECK(torch::isnan(expected.narrow(1, 0, 2)).all().item<bool>());
    CHECK(torch::allclose(early.narrow(1, 2, 4), expected.narrow(1, 2, 4), 1e-5, 1e-6));
}

TEST_CASE("attention dropout acts while training and not in evaluation", "[models]") {
    torch::manual_seed(9);
    MultiheadAttention attention(8, 2, 0.5);
    torch::NoGradGuard no_grad;
    const auto query = torch::randn({2, 5, 8}), kv = torch::randn({2, 5, 8});
    attention->eval();
    const auto evaluated = attention->forward(query, kv, {}, true);
    CHECK(torch::equal(evaluated, attention->forward(query, kv, {}, true)));
    attention->train();
    const auto trained = attention->forward(query, kv, {}, true);
    CHECK_FALSE(torch::allclose(trained, evaluated));
}

// MLBench's Transformer (fairseq) normalises the step's gradient by the tokens of all
// workers; the engine's buckets average the ranks' gradients. Two "ranks" with 3 and 21 target tokens: each
// rank's mean loss weighed by globalTokenWeight, averaged, gives the gradient of the token mean over both
// ranks' pairs in one batch; the plain average of the ranks' means does not.
TEST_CASE("ranks weighing their mean loss by globalTokenWeight average to the all-rank token mean's gradient",
          "[models]") {
    torch::manual_seed(3);
    TransformerOptions o;
    o.vocabulary = 16;
    o.model = 8;
    o.heads = 2;
    o.ffn = 16;
    o.layers = 1;
    Transformer model(o);
    model->eval(); // dropout off; gradients still flow
    SentencePairs pairs;
    pairs.sources = {{4, 5}, {6, 7, 8}, {9, 10, 11, 12}, {13, 4}};
    pairs.targets = {{5, 6}, {7, 8, 9, 10, 11}, {12, 13, 14, 15, 4, 5}, {6, 7, 8, 9, 10, 11, 12}};
    const auto gradient = [&](const std::vector<int64_t>& rows, double weight) {
        model->zero_grad();
        const ParallelBatch b = makeParallelBatch(pairs, rows);
        const auto loss =
            labelSmoothedLoss(model->forward(b.source, b.target_in), b.target_out, 0.1, Vocabulary::kPad);
        (loss * weight).backward();
        std::vector<torch::Tensor> out;
        for (const auto& p : model->parameters())
            out.push_back(p.grad().clone());
        return std::make_pair(out, b.target_tokens);
    };
    const auto [all, global_tokens] = gradient({0, 1, 2, 3}, 1.0);
    REQUIRE(global_tokens == 24);
    const auto [first, first_tokens] = gradient({0}, globalTokenWeight(3, global_tokens, 2));
    const auto [second, second_tokens] = gradient({1, 2, 3}, globalTokenWeight(21, global_tokens, 2));
    REQUIRE(first_tokens == 3);
    REQUIRE(second_tokens == 21);
    const auto [first_mean, ignored_a] = gradient({0}, 1.0);
    const auto [second_mean, ignored_b] = gradient({1, 2, 3}, 1.0);
    double weighted_error = 0, plain_error = 0, size = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        weighted_error += ((first[i] + second[i]) / 2 - all[i]).abs().max().item<double>();
        plain_error =
            std::max(plain_error, ((first_mean[i] + second_mean[i]) / 2 - all[i]).abs().max().item<double>());
        size = std::max(size, all[i].abs().max().item<double>());
    }
    INFO("largest gradient " << size << ", weighted error " << weighted_error << ", plain error "
                             << plain_error);
    CHECK(weighted_error < 1e-5 * size * static_cast<double>(all.size()));
    CHECK(plain_error > 1e-2 * size);
    CHECK(globalTokenWeight(12, 24, 2) == 1.0); // equal shares: the plain average
}

// The reference decodes with beams. A made-up model whose likeliest first token (A, 0.6)
// leads to a poorer sentence (A X eos: 0.6 x 0.46 x 1) than the runner-up (B eos: 0.4 x 0.99): greedy (one
// beam) takes A, four beams find B, also after length normalisation (fairseq's L^0.6 and GNMT's).
TEST_CASE("beam search finds the likelier sentence that greedy decoding misses", "[models]") {
    constexpr int64_t kA = 4, kB = 5, kX = 6, kY = 7, kVocabulary = 8;
    const auto next = [](const torch::Tensor& prefixes, const torch::Tensor&) {
        auto p = torch::full({prefixes.size(0), kVocabulary}, 1e-6);
        const auto last = prefixes.select(1, prefixes.size(1) - 1);
        for (int64_t row = 0; row < prefixes.size(0); ++row) {
            const int64_t token = last[row].item<int64_t>();
            if (token == Vocabulary::kBos) {
                p[row][kA] = 0.6;
                p[row][kB] = 0.4;
            } else if (token == kA) {
                p[row][kX] = 0.46;
                p[row][kY] = 0.44;
                p[row][Vocabulary::kEos] = 0.1;
            } else if (token == kB) {
                p[row][Vocabulary::kEos] = 0.99;
                p[row][kX] = 0.01;
            } else {
                p[row][Vocabulary::kEos] = 1.0;
            }
        }
        return p.log();
    };
    BeamOptions o;
    o.max_length = 6;
    o.beam = 1;
    const auto greedy = beamSearch(2, o, next, torch::zeros({1}));
    INFO("one beam: " << greedy);
    CHECK(torch::equal(greedy.select(0, 0).narrow(0, 0, 3), torch::tensor({kA, kX, Vocabulary::kEos})));
    for (const auto penalty : {LengthPenalty::fairseq, LengthPenalty::gnmt}) {
        o.beam = 4;
        o.penalty = penalty;
        const auto beamed = beamSearch(2, o, next, torch::zeros({1})); // (2, <= 6): both sentences alike
        INFO("four beams: " << beamed);
        REQUIRE(beamed.size(0) == 2);
        for (int64_t s = 0; s < 2; ++s)
            CHECK(torch::equal(beamed.select(0, s).narrow(0, 0, 2), torch::tensor({kB, Vocabulary::kEos})));
    }
}

TEST_CASE("beam decoding of both models with one beam is greedy decoding", "[models]") {
    torch::manual_seed(5);
    TransformerOptions t;
    t.vocabulary = 16;
    t.model = 8;
    t.heads = 2;
    t.ffn = 16;
    t.layers = 1;
    Transformer transformer(t);
    GnmtOptions g;
    g.vocabulary = 16;
    g.hidden = 8;
    Gnmt gnmt(g);
    transformer->eval();
    gnmt->eval();
    torch::NoGradGuard no_grad;
    const auto source = torch::tensor({4, 5, 6, 3, 7, 8, 3, 0}, torch::kInt64).view({2, 4});
    const auto lengths = torch::tensor({4, 3}, torch::kInt64);
    BeamOptions one;
    one.beam = 1;
    one.max_length = 6;
    // Greedy decoding goes on after </s> until every row has one; beam search pads with </s>: compare up to
    // it.
    const auto same = [](const torch::Tensor& a, const torch::Tensor& b) {
        for (int64_t row = 0; row < a.size(0); ++row)
            for (int64_t i = 0; i < std::min(a.size(1), b.size(1)); ++i) {
                if (a[row][i].item<int64_t>() != b[row][i].item<int64_t>()) return false;
                if (a[row][i].item<int64_t>() == Vocabulary::kEos) break;
            }
        return true;
    };
    CHECK(same(transformer->beamDecode(source, one), transformer->greedyDecode(source, 6, 2, 3)));
    CHECK(same(gnmt->beamDecode(source, lengths, one), gnmt->greedyDecode(source, lengths, 6, 2, 3)));
}
