// MLBench tasks 2 and 3 without MPI: the logistic-regression and AWD-LSTM forward passes equal PyTorch's
// from the same weights (tests/fixtures/make_logistic.py, make_lstm.py), the AWD-LSTM's dropouts and weight
// drop, and the LIBSVM and word-level text readers on files the tests write (shards, sparse lines, errors
// naming file and line).
#include "awd_lstm.h"
#include "libsvm_file.h"
#include "logistic_model.h"
#include "model_fixture.h"
#include "temporary_folder.h"
#include "word_corpus.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>

using namespace scalebench;

namespace {

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

} // namespace

namespace {
// The fixture's name of layer l's hidden ("h") or cell ("c") state: "h0", "c1", ... (appended, not `"h" +
// std::to_string(l)`, which GCC 12 at -O3 flags with a false -Wstringop-overflow).
std::string stateName(const char* kind, int64_t layer) {
    std::string name(kind);
    name += std::to_string(layer);
    return name;
}
} // namespace

TEST_CASE("the AWD-LSTM computes PyTorch's logits and carried state from the same weights in eval mode",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/lstm_lm.json");
    AwdLstmOptions options;
    options.vocabulary = fixture.config["vocabulary"];
    options.embedding = fixture.config["embedding"];
    options.hidden = fixture.config["hidden"];
    options.layers = fixture.config["layers"];
    options.tied = fixture.config["tied"];
    AwdLstm model(options);
    loadFixtureState(*model, fixture); // names: encoder.weight, rnns.0.weight_ih_l0, ..., decoder.bias
    model->eval();
    torch::NoGradGuard no_grad;
    LstmState state;
    for (int64_t l = 0; l < options.layers; ++l)
        state.emplace_back(fixture.inputs.at(stateName("h", l)), fixture.inputs.at(stateName("c", l)));
    const auto out = model->forward(fixture.inputs.at("tokens"), state);
    checkFixtureOutput(out.logits, fixture, "logits");
    for (int64_t l = 0; l < options.layers; ++l) {
        const auto index = static_cast<std::size_t>(l);
        checkFixtureOutput(std::get<0>(out.state[index]), fixture, stateName("h", l));
        checkFixtureOutput(std::get<1>(out.state[index]), fixture, stateName("c", l));
    }
    // Tied: one parameter for the embedding and the decoder's weight.
    CHECK(model->named_parameters().size() == 2 + 4 * static_cast<std::size_t>(options.layers));
}

TEST_CASE("the AWD-LSTM's dropouts act in training mode only, with one mask per sequence", "[models]") {
    AwdLstmOptions options;
    options.vocabulary = 20, options.embedding = 8, options.hidden = 12, options.layers = 2;
    AwdLstm model(options);
    const auto tokens = torch::randint(0, 20, {5, 4}, torch::kInt64);
    torch::NoGradGuard no_grad;
    model->eval();
    const auto a = model->forward(tokens, model->initialState(4)).logits;
    const auto b = model->forward(tokens, model->initialState(4)).logits;
    CHECK(torch::equal(a, b));
    model->train();
    const auto c = model->forward(tokens, model->initialState(4)).logits;
    CHECK_FALSE(torch::allclose(a, c));

    const auto dropped = lockedDropout(torch::ones({6, 3, 10}), 0.5, true);
    CHECK(torch::equal(dropped[0], dropped[5])); // the same mask at every time step
    CHECK(dropped.eq(0).any().item<bool>());
}

TEST_CASE(
    "the AWD-LSTM's weight drop zeroes hidden-to-hidden weights in training only, the gradient reaching "
    "them through the mask",
    "[models]") {
    AwdLstmOptions options;
    options.vocabulary = 20, options.embedding = 8, options.hidden = 12, options.layers = 2;
    options.dropout = options.dropout_hidden = options.dropout_input = options.dropout_embedding = 0;
    CHECK(options.weight_drop == 0.5); // AWD-LSTM's wdrop, the default
    const auto tokens = torch::randint(0, 20, {5, 4}, torch::kInt64);

    // Weight drop 1 drops every hidden-to-hidden weight: the same as the eval-mode model with them zeroed.
    options.weight_drop = 1;
    AwdLstm dropped(options);
    dropped->train();
    const auto all_dropped = dropped->forward(tokens, dropped->initialState(4)).logits;
    {
        torch::NoGradGuard no_grad;
        for (auto& p : dropped->named_parameters())
            if (p.key().find("weight_hh") != std::string::npos) p.value().zero_();
    }
    dropped->eval();
    const auto zeroed = dropped->forward(tokens, dropped->initialState(4)).logits;
    CHECK(maxAbsDifference(all_dropped, zeroed) < 1e-6);

    // Weight drop 0.5: training outputs differ from eval's (no other dropout is on), eval's are the plain
    // LSTM's, and about half of each weight_hh gets no gradient.
    options.weight_drop = 0.5;
    AwdLstm model(options);
    model->eval();
    torch::Tensor plain;
    {
        torch::NoGradGuard no_grad;
        plain = model->forward(tokens, model->initialState(4)).logits;
    }
    model->train();
    const auto trained = model->forward(tokens, model->initialState(4)).logits;
    CHECK_FALSE(torch::allclose(plain, trained));
    trained.sum().backward();
    for (auto& p : model->named_parameters()) {
        if (p.key().find("weight_hh") == std::string::npos) continue;
        INFO(p.key());
        const double without = p.value().grad().eq(0).to(torch::kFloat64).mean().item<double>();
        CHECK(without > 0.35);
        CHECK(without < 0.65);
    }
}

TEST_CASE("logistic regression computes PyTorch's logits and MLBench's regularised binary cross-entropy",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/logistic_regression.json");
    LogisticModel model(fixture.config["features"].get<int64_t>());
    loadFixtureState(*model, fixture);
    torch::NoGradGuard no_grad;
    const auto logits = model->forward(fixture.inputs.at("features"));
    checkFixtureOutput(logits, fixture, "logits");
    const auto loss = model->regularisedLoss(logits, fixture.inputs.at("labels"), fixture.config["l2"]);
    INFO("loss " << loss.item<double>() << ", PyTorch's " << fixture.outputs.at("loss").item<double>());
    checkFixtureOutput(loss.reshape({1}), fixture, "loss");
}

TEST_CASE("a LIBSVM file is read as disjoint dense shards with 0-1 labels and absent indices as zeros",
          "[models][data]") {
    TemporaryFolder folder;
    const auto path = folder.path / "train.libsvm";
    writeText(path, "+1 1:0.5 3:-2\n"
                    "-1 2:1.5\n"
                    "\n"
                    "# a comment\n"
                    "1 4:0.25 5:1e-3\n"
                    "0 1:1\n"
                    "-1\n");
    const LibsvmShard all = readLibsvmShard(path, 0, 1);
    CHECK(all.feature_count == 5); // the largest index
    REQUIRE(all.size() == 5);
    CHECK(torch::equal(all.labels, torch::tensor({1.0f, 0.0f, 1.0f, 0.0f, 0.0f})));
    CHECK(torch::equal(all.features[0], torch::tensor({0.5f, 0.0f, -2.0f, 0.0f, 0.0f})));
    CHECK(all.features[2][4].item<float>() == Approx(1e-3));
    CHECK(all.features[4].abs().sum().item<float>() == 0);

    // Two ranks: samples 0, 2, 4 and 1, 3; both find the width of the whole file.
    const LibsvmShard first = readLibsvmShard(path, 0, 2), second = readLibsvmShard(path, 1, 2);
    CHECK(first.size() == 3);
    CHECK(second.size() == 2);
    CHECK(first.feature_count == 5);
    CHECK(second.feature_count == 5);
    CHECK(torch::equal(first.features[1], all.features[2]));
    CHECK(torch::equal(second.features[0], all.features[1]));
    CHECK(torch::equal(second.features[1], all.features[3]));

    // A stated width wider than the file pads with zeros.
    CHECK(readLibsvmShard(path, 0, 1, 8).features.size(1) == 8);
}

TEST_CASE("a bad LIBSVM file is refused naming the file and the line", "[models][data]") {
    TemporaryFolder folder;
    const auto path = folder.path / "bad.libsvm";
    auto refused = [&](const std::string& text, int64_t features = 0) {
        writeText(path, text);
        try {
            readLibsvmShard(path, 0, 1, features);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK_THAT(refused("\n# only a comment\n"), Catch::Contains("bad.libsvm holds no samples"));
    CHECK_THAT(refused("1 1:0.5\n1 2:x\n"),
               Catch::Contains("bad.libsvm, line 2") && Catch::Contains("'2:x'"));
    CHECK_THAT(refused("1 1:0.5\nspam 2:1\n"), Catch::Contains("line 2: label 'spam'"));
    CHECK_THAT(refused("2 1:0.5\n"), Catch::Contains("line 1: label 2 is not"));
    CHECK_THAT(refused("1 0:0.5\n"), Catch::Contains("line 1: index 0"));
    CHECK_THAT(refused("1 3:0.5 2:1\n"), Catch::Contains("line 1: index 2 after 3"));
    CHECK_THAT(refused("1 1:0.5\n\n-1 2001:1\n", 2000),
               Catch::Contains("line 3: index 2001 beyond the 2000 features"));
    CHECK_THAT(refused("1 1:0.5\n"), Catch::Equals("accepted"));
    CHECK_THROWS_WITH(readLibsvmShard(folder.path / "absent.libsvm", 0, 1),
                      Catch::Contains("absent.libsvm cannot be read"));
    // A shard that would be empty says so rather than training on nothing.
    writeText(path, "1 1:1\n");
    CHECK_THROWS_WITH(readLibsvmShard(path, 1, 2), Catch::Contains("leave rank 1 of 2 none"));
}

TEST_CASE("word-level text becomes tokens with eos per line, contiguous shards and columns",
          "[models][data]") {
    TemporaryFolder folder;
    writeText(folder.path / "train.tokens", " = Title = \n\n the cat sat on the mat \n");
    writeText(folder.path / "valid.tokens", "the dog sat\n");
    const auto vocabulary = CorpusVocabulary::fromFile(folder.path / "train.tokens");
    // <eos>, <unk>, =, Title, the, cat, sat, on, mat
    CHECK(vocabulary.size() == 9);
    CHECK(vocabulary.indexOf("<eos>") == 0);
    CHECK(vocabulary.indexOf("dog") == vocabulary.indexOf("<unk>"));
    const auto train = readTokens(folder.path / "train.tokens", vocabulary);
    REQUIRE(train.size(0) == 3 + 1 + 1 + 6 + 1); // three lines, each ending in <eos>
    CHECK(vocabulary.word(train[3].item<int64_t>()) == "<eos>");
    CHECK(vocabulary.word(train[4].item<int64_t>()) == "<eos>"); // the blank line
    const auto valid = readTokens(folder.path / "valid.tokens", vocabulary);
    CHECK(vocabulary.word(valid[1].item<int64_t>()) == "<unk>");

    // 12 tokens on 2 ranks: [0, 6) and [6, 12); in 3 columns: rows of (t0, t2, t4), (t1, t3, t5).
    const auto first = contiguousShard(train, 0, 2), second = contiguousShard(train, 1, 2);
    CHECK(torch::equal(first, train.narrow(0, 0, 6)));
    CHECK(torch::equal(second, train.narrow(0, 6, 6)));
    const auto columns = batchify(torch::arange(7, torch::kInt64), 3, "text");
    CHECK(torch::equal(columns, torch::tensor({0, 2, 4, 1, 3, 5}, torch::kInt64).view({2, 3})));
    CHECK_THROWS_WITH(batchify(torch::arange(5, torch::kInt64), 3, "validation text"),
                      Catch::Contains("validation text: 5 tokens"));
}

TEST_CASE("a missing, empty or binary text file is refused by name", "[models][data]") {
    TemporaryFolder folder;
    CHECK_THROWS_WITH(CorpusVocabulary::fromFile(folder.path / "wiki.train.tokens"),
                      Catch::Contains("wiki.train.tokens cannot be read"));
    writeText(folder.path / "empty.tokens", "\n\n");
    CHECK_THROWS_WITH(CorpusVocabulary::fromFile(folder.path / "empty.tokens"),
                      Catch::Contains("holds no words"));
    writeText(folder.path / "binary.tokens", std::string("a b\nc\0d\n", 8));
    CHECK_THROWS_WITH(CorpusVocabulary::fromFile(folder.path / "binary.tokens"),
                      Catch::Contains("line 2: a NUL byte"));
}

TEST_CASE("synthetic Markov text is reproducible and far from uniform", "[models][data]") {
    const auto a = markovText(5000, 64, 7), b = markovText(5000, 64, 7), c = markovText(5000, 64, 8);
    CHECK(torch::equal(a, b));
    CHECK_FALSE(torch::equal(a, c));
    CHECK(a.min().item<int64_t>() >= 0);
    CHECK(a.max().item<int64_t>() < 64);
    // Each word has at most 4 successors.
    std::map<int64_t, std::set<int64_t>> successors;
    for (int64_t i = 0; i + 1 < a.size(0); ++i)
        successors[a[i].item<int64_t>()].insert(a[i + 1].item<int64_t>());
    for (const auto& [word, next] : successors)
        CHECK(next.size() <= 4);
}
