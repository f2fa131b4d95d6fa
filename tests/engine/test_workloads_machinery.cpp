// The training loop's common machinery under real mpirun, on ResNet-20 with synthetic CIFAR at 2 ranks: bf16
// and fp16 training (fp16 with dynamic loss scaling), seeded runs that repeat, checkpoints and --resume that
// continue exactly where a run stopped, and MLPerf's compliance log.
#include "engine_run.h"
#include "training_outcome.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

using namespace scalebench;
using nlohmann::json;

namespace {

// Every record of a metric stream, as written (core's parser keeps only what the console needs).
std::vector<json> rawRecords(const std::filesystem::path& path, const std::string& type) {
    std::vector<json> out;
    std::istringstream lines(fileText(path));
    for (std::string line; std::getline(lines, line);) {
        const json record = json::parse(line);
        if (record.value("type", "") == type) out.push_back(record);
    }
    return out;
}

const std::vector<std::string> kSmallRun = {"--workload",
                                            "resnet20",
                                            "--dataset",
                                            "synthetic-cifar",
                                            "--batch-per-rank",
                                            "8",
                                            "--eval-samples",
                                            "16",
                                            "--threads-per-rank",
                                            "1",
                                            "--warmup-steps",
                                            "0",
                                            "--seed",
                                            testSeed()};

std::vector<std::string> withSmallRun(std::vector<std::string> options) {
    options.insert(options.end(), kSmallRun.begin(), kSmallRun.end());
    return options;
}

} // namespace

TEST_CASE(
    "bf16 and fp16 training of ResNet-20 at 2 ranks stays finite and close to fp32 and fp16 records its "
    "loss scale",
    "[workloads][precision][outcome]") {
    // Synthetic CIFAR has random labels: over a few steps of new batches the loss does not fall, so the check
    // is against the same run in fp32 (fp16 on this CPU takes ~3.5 s a step: 3 steps).
    TemporaryFolder folder;
    std::map<std::string, std::vector<StepRecord>> curves;
    for (const std::string precision : {"fp32", "bf16", "fp16"}) {
        INFO(precision);
        const std::string name = precision + ".jsonl";
        const EngineRun run =
            runEngine(folder, 2, withSmallRun({"--precision", precision, "--steps", "3"}), name);
        INFO(run.output);
        REQUIRE(run.status == 0);
        curves[precision] = recordsOf<StepRecord>(run);
        REQUIRE(curves[precision].size() == 3);
        const auto header = rawRecords(folder.path / name, "header").at(0);
        CHECK(header["precision"] == precision);
        for (const auto& s : rawRecords(folder.path / name, "step")) {
            CHECK(std::isfinite(s["loss"].get<double>()));
            if (precision == "fp16") {
                CHECK(s["loss_scale"].get<double>() == 128.0); // MLBench's 2^7, no overflow expected
                CHECK_FALSE(s.contains("skipped"));
            } else {
                CHECK_FALSE(s.contains("loss_scale"));
            }
        }
    }
    // Close to fp32, and not fp32 itself: a run that ignored --precision would give fp32's curve to the bit.
    for (const char* precision : {"bf16", "fp16"}) {
        double largest = 0;
        for (std::size_t i = 0; i < 3; ++i)
            largest = std::max(largest, std::abs(curves[precision][i].loss - curves["fp32"][i].loss));
        INFO(precision << ": largest loss difference from fp32 " << largest);
        CHECK_OUTCOME_BELOW(std::string("largest loss difference from fp32, ") + precision, largest, 0.05);
        CHECK(largest > 1e-6);
    }
}

TEST_CASE("two runs with the same seed give the same loss curve at 2 ranks",
          "[workloads][reproducibility][outcome]") {
    TemporaryFolder folder;
    std::vector<std::vector<StepRecord>> curves;
    for (const char* name : {"first.jsonl", "second.jsonl"}) {
        const EngineRun run = runEngine(folder, 2, withSmallRun({"--steps", "4"}), name);
        INFO(run.output);
        REQUIRE(run.status == 0);
        curves.push_back(recordsOf<StepRecord>(run));
        REQUIRE(curves.back().size() == 4);
    }
    double largest = 0;
    for (std::size_t i = 0; i < 4; ++i)
        largest = std::max(largest, std::abs(curves[0][i].loss - curves[1][i].loss));
    CHECK_OUTCOME_BELOW("largest loss difference between the two runs", largest, 1e-6);
}

TEST_CASE("six steps straight equal three steps, a checkpoint and three resumed steps",
          "[workloads][checkpoint][outcome]") {
    TemporaryFolder folder;
    const auto checkpoints = (folder.path / "checkpoints").string();
    auto train = [&](const std::string& name, std::vector<std::string> options) {
        options.insert(options.end(), {"--dump-parameters", (folder.path / (name + ".bin")).string()});
        EngineRun run = runEngine(folder, 2, withSmallRun(options), name + ".jsonl");
        INFO(run.output);
        REQUIRE(run.status == 0);
        return run;
    };
    const EngineRun straight = train("straight", {"--steps", "6"});
    const EngineRun first = train("first", {"--steps", "3", "--checkpoint-dir", checkpoints});
    const EngineRun resumed =
        train("resumed", {"--steps", "6", "--checkpoint-dir", checkpoints, "--resume", "yes"});

    // The first run's checkpoint: one file of the shared state, one per rank, and its record.
    CHECK(std::filesystem::exists(folder.path / "checkpoints" / "checkpoint-3.pt"));
    CHECK(std::filesystem::exists(folder.path / "checkpoints" / "checkpoint-3.rank0.pt"));
    CHECK(std::filesystem::exists(folder.path / "checkpoints" / "checkpoint-3.rank1.pt"));
    const auto saved = rawRecords(folder.path / "first.jsonl", "checkpoint");
    REQUIRE(saved.size() == 1);
    CHECK(saved[0]["step"] == 3);
    CHECK_THAT(saved[0]["path"].get<std::string>(), Catch::EndsWith("checkpoint-3.pt"));

    const auto all = recordsOf<StepRecord>(straight);
    auto parts = recordsOf<StepRecord>(first);
    const auto rest = recordsOf<StepRecord>(resumed);
    REQUIRE(rest.size() == 3);
    CHECK(rest.front().step == 4);
    parts.insert(parts.end(), rest.begin(), rest.end());
    REQUIRE(all.size() == 6);
    REQUIRE(parts.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
        INFO("step " << i + 1);
        CHECK(std::abs(all[i].loss - parts[i].loss) <= 1e-5);
    }
    const auto header = rawRecords(folder.path / "resumed.jsonl", "header").at(0);
    CHECK(header["first_step"] == 4);

    const auto reference = floatsIn(folder.path / "straight.bin");
    const auto values = floatsIn(folder.path / "resumed.bin");
    REQUIRE(!reference.empty());
    REQUIRE(values.size() == reference.size());
    double largest = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
        largest = std::max(largest, std::abs(static_cast<double>(values[i]) - reference[i]));
    CHECK_OUTCOME_BELOW("largest parameter difference, resumed against straight through", largest, 1e-5);
}

TEST_CASE("resuming without a checkpoint or from a corrupt one ends the run with an error naming it",
          "[workloads][checkpoint]") {
    TemporaryFolder folder;
    const auto empty = (folder.path / "empty").string();
    std::filesystem::create_directories(empty);
    const EngineRun none =
        runEngine(folder, 1, withSmallRun({"--steps", "2", "--checkpoint-dir", empty, "--resume", "yes"}),
                  "none.jsonl");
    CHECK(none.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(none).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(none)[0].message,
               Catch::Contains("no checkpoint") && Catch::Contains(empty));

    const auto broken = folder.path / "broken";
    std::filesystem::create_directories(broken);
    std::ofstream(broken / "checkpoint-2.pt") << "not a checkpoint";
    const EngineRun corrupt = runEngine(
        folder, 1, withSmallRun({"--steps", "4", "--checkpoint-dir", broken.string(), "--resume", "yes"}),
        "corrupt.jsonl");
    CHECK(corrupt.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(corrupt).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(corrupt)[0].message,
               Catch::Contains((broken / "checkpoint-2.pt").string()) && Catch::Contains("corrupt"));
}

TEST_CASE(
    "a run never appends to a metric stream that exists: it stops, naming the file, and leaves it as it was",
    "[workloads][metrics]") {
    TemporaryFolder folder;
    const EngineRun first = runEngine(folder, 1, withSmallRun({"--steps", "2"}), "taken.jsonl");
    REQUIRE(first.status == 0);
    const std::string before = fileText(folder.path / "taken.jsonl");
    const EngineRun second = runEngine(folder, 2, withSmallRun({"--steps", "3"}), "taken.jsonl");
    CHECK(second.status != 0);
    CHECK_THAT(second.output,
               Catch::Contains((folder.path / "taken.jsonl").string()) && Catch::Contains("exists already"));
    CHECK(fileText(folder.path / "taken.jsonl") == before); // no error record either: the file is not its own
}

TEST_CASE("a run's MLLOG file holds one :::MLLOG JSON line an event with MLPerf's keys in order",
          "[workloads][mllog]") {
    TemporaryFolder folder;
    const auto mllog = folder.path / "mllog.txt";
    const EngineRun run =
        runEngine(folder, 2, withSmallRun({"--steps", "4", "--eval-every", "2", "--mllog", mllog.string()}));
    INFO(run.output);
    REQUIRE(run.status == 0);
    std::vector<json> events;
    std::istringstream lines(fileText(mllog));
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        REQUIRE(line.rfind(":::MLLOG {", 0) == 0);
        const json event = json::parse(line.substr(9));
        for (const char* field : {"namespace", "time_ms", "event_type", "key", "value", "metadata"})
            CHECK(event.contains(field));
        CHECK(event["metadata"].contains("file"));
        CHECK(event["metadata"].contains("lineno"));
        events.push_back(event);
    }
    std::vector<std::string> keys;
    for (const auto& e : events)
        keys.push_back(e["key"]);
    auto position = [&](const std::string& key) {
        const auto it = std::find(keys.begin(), keys.end(), key);
        INFO(key);
        CHECK(it != keys.end());
        return it - keys.begin();
    };
    CHECK(position("init_start") == 0);
    for (const char* key :
         {"submission_benchmark", "submission_org", "cache_clear", "seed", "global_batch_size",
          "opt_base_learning_rate", "opt_name", "train_samples", "eval_samples", "micro_batch_size"})
        CHECK(position(key) < position("init_stop"));
    CHECK(position("init_stop") < position("run_start"));
    CHECK(position("run_start") < position("epoch_start"));
    CHECK(position("epoch_start") < position("eval_start"));
    CHECK(position("eval_start") < position("eval_accuracy"));
    CHECK(position("eval_accuracy") < position("eval_stop"));
    CHECK(position("eval_stop") < position("run_stop"));
    CHECK(keys.back() == "run_stop");
    CHECK(std::count(keys.begin(), keys.end(), "eval_accuracy") == 2); // steps 2 and 4
    CHECK(std::count(keys.begin(), keys.end(), "epoch_start") ==
          std::count(keys.begin(), keys.end(), "epoch_stop"));
    CHECK(events[position("global_batch_size")]["value"] == 16); // integers as integers, as mllog writes them
    CHECK(events[position("global_batch_size")]["value"].is_number_integer());
    CHECK(events[position("seed")]["value"] == std::stoi(testSeed()));
    CHECK(events[position("submission_benchmark")]["value"] ==
          "resnet"); // the MLPerf benchmark, not resnet20
    CHECK(events[position("eval_accuracy")]["metadata"].contains("epoch_num"));
    CHECK(events[position("eval_accuracy")]["metadata"]["samples_count"] == 2 * 16); // after step 2
    CHECK(events.back()["metadata"]["status"] == "aborted"); // no target reached: not a time to quality
    CHECK(events.back()["event_type"] == "INTERVAL_END");
    CHECK(events[0]["event_type"] == "INTERVAL_START");
}

TEST_CASE("gradient accumulation: a global batch of 16 as 2 micro-batches of 8 trains the loss curve of one "
          "batch of 16",
          "[workloads][accumulation][outcome]") {
    // Logistic regression on a LIBSVM file: no batch normalisation, and the sampler's order does not depend
    // on the batch size, so both runs see the same 16 samples at every step.
    TemporaryFolder folder;
    std::filesystem::create_directories(folder.path / "svm");
    for (const auto& [name, rows] : {std::pair<std::string, int>{"train.libsvm", 64}, {"test.libsvm", 16}}) {
        std::ofstream file(folder.path / "svm" / name);
        for (int i = 0; i < rows; ++i)
            file << (i % 3 == 0 ? "+1" : "-1") << " 1:" << 0.1 * (i % 7) << " 2:" << (i % 3 == 0 ? 0.8 : -0.4)
                 << " 4:" << 0.05 * i << "\n";
    }
    const std::vector<std::string> common = {"--workload",
                                             "logistic-regression",
                                             "--dataset",
                                             "libsvm",
                                             "--data-dir",
                                             (folder.path / "svm").string(),
                                             "--steps",
                                             "8",
                                             "--eval-samples",
                                             "16",
                                             "--threads-per-rank",
                                             "1"};
    const auto curveOf = [&](std::vector<std::string> batch, const std::string& name) {
        batch.insert(batch.begin(), common.begin(), common.end());
        const EngineRun run = runEngine(folder, 1, batch, name);
        INFO(run.output);
        REQUIRE(run.status == 0);
        const auto steps = recordsOf<StepRecord>(run);
        REQUIRE(steps.size() == 8);
        return steps;
    };
    const auto whole = curveOf({"--batch-per-rank", "16"}, "whole.jsonl");
    const auto accumulated = curveOf({"--batch-per-rank", "8", "--global-batch", "16"}, "accumulated.jsonl");
    double largest = 0;
    for (std::size_t i = 0; i < whole.size(); ++i)
        largest = std::max(largest, std::abs(whole[i].loss - accumulated[i].loss) / std::abs(whole[i].loss));
    CHECK(whole.back().loss != Approx(whole.front().loss)); // it trains
    CHECK_OUTCOME_BELOW("largest relative loss difference, accumulated against whole", largest, 1e-5);
}
