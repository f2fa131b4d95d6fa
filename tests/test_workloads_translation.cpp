// The translation workloads (MLBench task 4: gnmt, transformer) under real mpirun at their tiny presets: a
// few steps with the loss going down, tokens per second, a BLEU evaluation; the WMT-style parallel text
// files; plain errors for misaligned files.
#include "engine_run.h"
#include "training_outcome.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

using namespace scalebench;

namespace {

std::vector<nlohmann::json> jsonLines(const std::filesystem::path& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

std::vector<nlohmann::json> ofType(const std::vector<nlohmann::json>& records, const std::string& type) {
    std::vector<nlohmann::json> out;
    for (const auto& r : records)
        if (r.value("type", "") == type) out.push_back(r);
    return out;
}

// Mean loss of the first and of the last `n` steps.
std::pair<double, double> firstAndLastLoss(const std::vector<nlohmann::json>& steps, std::size_t n) {
    REQUIRE(steps.size() >= 2 * n);
    double first = 0, last = 0;
    for (std::size_t i = 0; i < n; ++i) {
        first += steps[i]["loss"].get<double>() / static_cast<double>(n);
        last += steps[steps.size() - 1 - i]["loss"].get<double>() / static_cast<double>(n);
    }
    return {first, last};
}

// A small "language pair" in WMT-style files: German-looking words for English-looking ones, one sentence a
// line, whitespace-separated, with a BPE continuation marker on some tokens.
void writeParallelFiles(const std::filesystem::path& dir, int train_lines, int valid_lines) {
    std::mt19937 random(7);
    std::uniform_int_distribution<int> word(0, 29), length(3, 9);
    auto write = [&](const std::string& split, int lines) {
        std::ofstream src(dir / (split + ".src")), tgt(dir / (split + ".tgt"));
        for (int i = 0; i < lines; ++i) {
            const int n = length(random);
            for (int k = 0; k < n; ++k) {
                const int w = word(random);
                src << (k ? " " : "") << "en" << w << (w % 7 == 0 ? "@@" : "");
                tgt << (k ? " " : "") << "de" << (w * 11) % 30;
            }
            src << "\n";
            tgt << "\n";
        }
    };
    write("train", train_lines);
    write("valid", valid_lines);
}

// Checks the run trained (loss down, tokens/s) and evaluated (BLEU from the counts it reports); returns the
// eval record.
nlohmann::json checkTrainingRun(const EngineRun& run, const TemporaryFolder& folder,
                                std::size_t steps_run = 60) {
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto records = jsonLines(folder.path / "metrics.jsonl");
    const auto header = ofType(records, "header");
    REQUIRE(header.size() == 1);
    CHECK(header[0]["eval_metric"] == "bleu");
    CHECK(header[0]["hyperparameters"]["label_smoothing"] == 0.1);
    const auto steps = ofType(records, "step");
    REQUIRE(steps.size() == steps_run);
    CHECK(steps[0].contains("tokens_per_s"));
    CHECK(steps[0]["tokens_per_s"].get<double>() > 0);
    const auto [first, last] = firstAndLastLoss(steps, 5);
    INFO("loss " << first << " -> " << last);
    // from about ln(64) (no knowledge of the pair) in 60 small steps
    CHECK_OUTCOME_BELOW("loss fall, last 5 steps minus first 5", last - first, -0.1);
    const auto evals = ofType(records, "eval");
    REQUIRE(evals.size() == 1);
    CHECK(evals[0]["metric"] == "bleu");
    // The BLEU reported is the BLEU of the counts reported, computed here by hand: geometric mean of the four
    // n-gram precisions, sacrebleu's exp smoothing for zero matches, brevity penalty; 0 when no hypothesis is
    // long enough for 4-grams (or every translation is empty).
    const auto& counts = evals[0].at("bleu_counts");
    const auto matches = counts.at("matches").get<std::vector<double>>();
    const auto ngrams = counts.at("ngrams").get<std::vector<double>>();
    const double hypothesis = counts.at("hypothesis_length"), reference = counts.at("reference_length");
    REQUIRE(matches.size() == 4);
    REQUIRE(ngrams.size() == 4);
    CHECK(hypothesis == ngrams[0]);
    double bleu = 0;
    if (ngrams[3] > 0) {
        double log_precisions = 0, smooth = 1;
        for (int n = 0; n < 4; ++n)
            log_precisions +=
                matches[n] > 0 ? std::log(matches[n] / ngrams[n]) : -std::log((smooth *= 2) * ngrams[n]);
        const double brevity = hypothesis < reference ? std::exp(1 - reference / hypothesis) : 1.0;
        bleu = 100 * brevity * std::exp(log_precisions / 4);
    }
    INFO("n-gram counts " << counts.dump());
    CHECK(evals[0]["value"].get<double>() == Approx(bleu));
    CHECK(evals[0]["loss"].get<double>() > 0);
    const auto summary = ofType(records, "summary");
    REQUIRE(summary.size() == 1);
    CHECK(summary[0]["tokens_per_s"].get<double>() > 0);
    return evals[0];
}

// The BLEU evaluation translated something, and got words right: more of its unigrams match the references
// than guessing uniformly among the synthetic pair's 64 words would (measured over seeds 1-5: 0.029-0.068
// for gnmt at 150 steps, 0.038-0.27 for transformer at 60; bench/results/2026-11-25-outcome-margins.md).
void checkTranslatedWords(const nlohmann::json& eval) {
    const auto& counts = eval.at("bleu_counts");
    INFO("n-gram counts " << counts.dump());
    const double hypothesis = counts.at("hypothesis_length");
    REQUIRE(hypothesis > 0);
    CHECK_OUTCOME_ABOVE("unigram precision of the greedy translations",
                        counts.at("matches").at(0).get<double>() / hypothesis, 1.0 / 64);
}

const std::vector<std::string> kTiny = {
    "--preset",       "tiny",    "--steps",        "60", "--batch-per-rank",   "16",
    "--warmup-steps", "0",       "--eval-samples", "32", "--threads-per-rank", "1",
    "--seed",         testSeed()};

std::vector<std::string> with(std::vector<std::string> arguments, const std::vector<std::string>& more) {
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
}

} // namespace

TEST_CASE("gnmt at its tiny preset learns the synthetic language pair on 2 ranks and reports BLEU",
          "[workloads][outcome]") {
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 2,
                                    with(kTiny, {"--workload", "gnmt", "--dataset", "synthetic-parallel",
                                                 "--lr", "0.01", "--steps", "150"}));
    // GNMT learns the pair more slowly than the transformer: at 60 steps some seeds still translate every
    // sentence to nothing (seeds 2, 3 and 5 here); at 150 none did.
    checkTranslatedWords(checkTrainingRun(run, folder, 150));
}

TEST_CASE("transformer at its tiny preset learns the synthetic language pair on 2 ranks and reports BLEU",
          "[workloads][outcome]") {
    TemporaryFolder folder;
    const EngineRun run = runEngine(
        folder, 2,
        with(kTiny, {"--workload", "transformer", "--dataset", "synthetic-parallel", "--lr", "0.01"}));
    checkTranslatedWords(checkTrainingRun(run, folder));
}

TEST_CASE("gnmt and transformer train on WMT-style parallel text files on 2 ranks", "[workloads][outcome]") {
    for (const std::string workload : {"gnmt", "transformer"}) {
        TemporaryFolder folder;
        writeParallelFiles(folder.path, 400, 24);
        const EngineRun run = runEngine(folder, 2,
                                        with(kTiny, {"--workload", workload, "--dataset", "wmt", "--data-dir",
                                                     folder.path.string(), "--lr", "0.01"}));
        INFO(workload);
        checkTrainingRun(run, folder);
    }
}

TEST_CASE("parallel text files with different line counts end the run with an error naming both files",
          "[workloads]") {
    TemporaryFolder folder;
    writeParallelFiles(folder.path, 40, 8);
    std::ofstream(folder.path / "train.tgt", std::ios::app) << "de1 de2\n";
    const EngineRun run = runEngine(
        folder, 2,
        with(kTiny, {"--workload", "gnmt", "--dataset", "wmt", "--data-dir", folder.path.string()}));
    CHECK(run.status != 0);
    const auto errors = recordsOf<ErrorRecord>(run);
    REQUIRE(!errors.empty());
    CHECK_THAT(errors[0].message,
               Catch::Contains("train.src has 40 lines but") && Catch::Contains("train.tgt has 41"));
}

TEST_CASE("a translation workload names its datasets and presets when given another", "[workloads]") {
    TemporaryFolder folder;
    const EngineRun dataset =
        runEngine(folder, 1, {"--workload", "transformer", "--dataset", "cifar"}, "d.jsonl");
    CHECK(dataset.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(dataset).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(dataset)[0].message,
               Catch::Contains("no dataset 'cifar'") && Catch::Contains("wmt, synthetic-parallel"));
    const EngineRun preset = runEngine(
        folder, 1, {"--workload", "gnmt", "--dataset", "synthetic-parallel", "--preset", "huge"}, "p.jsonl");
    CHECK(preset.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(preset).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(preset)[0].message,
               Catch::Contains("no preset 'huge'") && Catch::Contains("tiny"));
}
