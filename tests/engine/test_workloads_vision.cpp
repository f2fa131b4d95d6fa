// The image workloads (MLBench task 1, MLPerf-style ResNet-50) under real mpirun: a few steps with the loss
// going down, their data formats, and plain errors for bad names and bad data.
#include "analysis.h"
#include "cifar10_files.h"
#include "engine_run.h"
#include "training_outcome.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace scalebench;

TEST_CASE("an unknown workload or dataset ends the run with an error record naming it", "[workloads]") {
    TemporaryFolder folder;
    const EngineRun unknown = runEngine(folder, 1, {"--workload", "resnet2000"}, "unknown.jsonl");
    CHECK(unknown.status != 0);
    const auto errors = recordsOf<ErrorRecord>(unknown);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message,
               Catch::Contains("unknown workload 'resnet2000'") && Catch::Contains("resnet20"));

    const EngineRun dataset = runEngine(folder, 1, {"--dataset", "mnist"}, "dataset.jsonl");
    CHECK(dataset.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(dataset).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(dataset)[0].message, Catch::Contains("no dataset 'mnist'") &&
                                                               Catch::Contains("fashion-mnist") &&
                                                               Catch::Contains("cifar10"));
}

namespace {

// Mean training loss of the first and of the last `count` steps.
std::pair<double, double> firstAndLastLoss(const std::vector<StepRecord>& steps, std::size_t count) {
    REQUIRE(steps.size() >= 2 * count);
    double first = 0, last = 0;
    for (std::size_t i = 0; i < count; ++i) {
        first += steps[i].loss / static_cast<double>(count);
        last += steps[steps.size() - 1 - i].loss / static_cast<double>(count);
    }
    return {first, last};
}

nlohmann::json headerOf(const EngineRun& run) {
    REQUIRE(!recordsOf<HeaderRecord>(run).empty());
    return nlohmann::json::parse(recordsOf<HeaderRecord>(run).front().json);
}

} // namespace

TEST_CASE("ResNet-56 on CIFAR-10 binary files at 2 ranks trains with augmentation and its loss goes down",
          "[workloads][outcome]") {
    TemporaryFolder folder;
    const auto data = folder.path / "cifar-10-batches-bin";
    std::filesystem::create_directories(data);
    writeCifar10Folder(data, 32, 20); // 160 training records: 80 a rank
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "resnet56", "--dataset", "cifar10", "--data-dir",
                                     data.string(), "--steps", "12", "--batch-per-rank", "16", "--lr", "0.05",
                                     "--warmup-steps", "0", "--eval-samples", "20", "--seed", testSeed()});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto header = headerOf(run);
    CHECK(header["workload"] == "resnet56");
    CHECK(header["hyperparameters"]["depth"] == 56);
    CHECK(header["hyperparameters"]["peak_lr"] == Approx(0.1));
    CHECK(header["hyperparameters"]["augmentation"] == "random crop (padding 4), horizontal flip");
    CHECK(header["parameters"] == 855770); // He et al.'s 0.85M
    const auto steps = recordsOf<StepRecord>(run);
    const auto [first, last] = firstAndLastLoss(steps, 3);
    CHECK_OUTCOME_BELOW("loss fall, last 3 steps minus first 3", last - first, 0);
    REQUIRE(recordsOf<EvalRecord>(run).size() == 1);

    // The same run without augmentation starts from the same weights and the same images in the same order:
    // only the crops and flips differ, so its first loss differs when the training batches are augmented.
    const EngineRun plain = runEngine(
        folder, 2, {"--workload",     "resnet56", "--dataset",        "cifar10", "--data-dir", data.string(),
                    "--steps",        "1",        "--batch-per-rank", "16",      "--lr",       "0.05",
                    "--warmup-steps", "0",        "--eval-samples",   "20",      "--seed",     testSeed(),
                    "--augmentation", "none"},
        "plain.jsonl");
    INFO(plain.output);
    REQUIRE(plain.status == 0);
    CHECK(headerOf(plain)["hyperparameters"]["augmentation"] == "none");
    REQUIRE(recordsOf<StepRecord>(plain).size() == 1);
    INFO("first loss with augmentation " << steps[0].loss << ", without "
                                         << recordsOf<StepRecord>(plain)[0].loss);
    CHECK(std::abs(steps[0].loss - recordsOf<StepRecord>(plain)[0].loss) > 1e-4);
}

TEST_CASE("a CIFAR-10 file that is not whole records ends the run with an error naming the file",
          "[workloads]") {
    TemporaryFolder folder;
    writeCifar10Folder(folder.path, 4, 4);
    std::filesystem::resize_file(folder.path / "data_batch_3.bin", 3 * 3073 + 1);
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "resnet20", "--dataset", "cifar10", "--data-dir",
                                     folder.path.string(), "--steps", "2", "--batch-per-rank", "2"});
    CHECK(run.status != 0);
    const auto errors = recordsOf<ErrorRecord>(run);
    REQUIRE(errors.size() >= 1);
    CHECK_THAT(errors[0].message,
               Catch::Contains("data_batch_3.bin") && Catch::Contains("3073-byte records"));
}

TEST_CASE("ResNet-50 on small synthetic ImageNet-shaped images at 2 ranks trains and its loss goes down",
          "[workloads][outcome]") {
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "resnet50", "--dataset", "synthetic-imagenet", "--preset",
                                     "32", "--steps", "8", "--batch-per-rank", "8", "--lr", "0.16",
                                     "--warmup-steps", "0", "--eval-samples", "4", "--seed", testSeed()});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto header = headerOf(run);
    CHECK(header["parameters"] == 25557032); // torchvision's ResNet-50
    CHECK(header["image_side"] == 32);
    CHECK(header["hyperparameters"]["label_smoothing"] == Approx(0.1));
    CHECK(header["hyperparameters"]["peak_lr"] == Approx(0.16 * 16 / 256));
    const auto steps = recordsOf<StepRecord>(run);
    const auto [first, last] = firstAndLastLoss(steps, 3);
    CHECK_OUTCOME_BELOW("loss fall, last 3 steps minus first 3", last - first, 0);
    CHECK(first == Approx(std::log(1000.0)).margin(1.5)); // 1000 classes, near-uniform at the start
}

TEST_CASE("ResNet-50 refuses an image side that is not a number and a dataset it does not have",
          "[workloads]") {
    TemporaryFolder folder;
    const EngineRun side = runEngine(
        folder, 1, {"--workload", "resnet50", "--dataset", "synthetic-imagenet", "--preset", "large"},
        "side.jsonl");
    CHECK(side.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(side).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(side)[0].message,
               Catch::Contains("--preset") && Catch::Contains("'large'"));
    const EngineRun dataset = runEngine(folder, 1, {"--workload", "resnet50"}, "dataset.jsonl");
    CHECK(dataset.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(dataset).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(dataset)[0].message,
               Catch::Contains("no dataset 'fashion-mnist'") && Catch::Contains("synthetic-imagenet"));
}

// The acceptance check: MLBench task 1 (ResNet-20) on the real Fashion-MNIST reaches its accuracy
// target on 2 ranks in a quickstart-sized run, and the summary carries the time to accuracy. 0.75 is below
// the 85.7% the quickstart (200 steps of 128 a rank) reaches, so a smaller batch still gets there on every
// CPU: 0.8 took 170 of the 200 steps at seed 2 here, too close to the limit; 0.75 took 80-140 steps over 4
// instruction sets and 3 seeds (bench/results/2026-11-25-outcome-margins.md).
TEST_CASE("Task 1 on Fashion-MNIST reaches its accuracy target on 2 ranks in a quickstart-sized run",
          "[workloads][outcome][slow]") {
    constexpr double kTarget = 0.75;
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "resnet20", "--dataset", "fashion-mnist", "--steps", "200",
                                     "--batch-per-rank", "64", "--eval-every", "10", "--eval-samples", "1000",
                                     "--target", "75", "--seed", testSeed()});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto evals = recordsOf<EvalRecord>(run);
    REQUIRE(!evals.empty());
    CHECK_OUTCOME_ABOVE("last held-out accuracy", evals.back().value, kTarget - 1e-12);
    const auto summaries = recordsOf<SummaryRecord>(run);
    REQUIRE(summaries.size() == 1);
    const auto summary = nlohmann::json::parse(summaries[0].json);
    INFO(summary.dump());
    REQUIRE(summary["time_to_accuracy_s"].is_number());
    CHECK(summary["time_to_accuracy_s"].get<double>() > 0);
    CHECK_OUTCOME_BELOW("steps to the target", summary["steps"].get<int64_t>(), 200);
    CHECK(summary["steps"].get<int64_t>() % 10 == 0);
}

// A target is read in the unit the console shows (accuracy in %); a fraction where a
// percentage belongs is refused before training; a run short of its target says so in its summary, with the
// best it got; the old --target-accuracy still works and warns.
TEST_CASE("a target is in percent for accuracy, refused as a fraction, and its outcome is in the summary",
          "[workloads]") {
    TemporaryFolder folder;
    const std::vector<std::string> tiny = {"--workload",   "resnet20", "--dataset",        "synthetic-cifar",
                                           "--steps",      "4",        "--batch-per-rank", "8",
                                           "--eval-every", "2",        "--eval-samples",   "16"};
    const auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> all = tiny;
        all.insert(all.end(), more.begin(), more.end());
        return all;
    };

    const EngineRun fraction = runEngine(folder, 1, with({"--target", "0.5"}), "fraction.jsonl");
    CHECK(fraction.status != 0);
    CHECK_THAT(fraction.output, Catch::Contains("--target 0.5 for resnet20 (accuracy)") &&
                                    Catch::Contains("write 50 for 50 %"));

    const EngineRun short_of = runEngine(folder, 1, with({"--target", "100"}), "short.jsonl");
    INFO(short_of.output);
    REQUIRE(short_of.status == 0);
    const SummaryRecord missed = recordsOf<SummaryRecord>(short_of).at(0);
    CHECK(missed.target == 100);
    CHECK_FALSE(missed.target_reached);
    CHECK_FALSE(missed.time_to_target_s);
    CHECK(missed.steps == 4); // ran every step
    REQUIRE(missed.best_eval);
    CHECK(*missed.best_eval <= 1); // the engine's accuracy is a fraction
    CHECK_THAT(formatTargetOutcome(missed), Catch::StartsWith("target acc 100.0% not reached in 4 steps"));

    // 2 % of synthetic images: any evaluation reaches it, so the run stops at the first one (step 2).
    const EngineRun old_key = runEngine(folder, 1, with({"--target-accuracy", "0.02"}), "old.jsonl");
    INFO(old_key.output);
    REQUIRE(old_key.status == 0);
    CHECK_THAT(old_key.output, Catch::Contains("--target-accuracy 0.02 is the old form of --target 2"));
    const SummaryRecord reached = recordsOf<SummaryRecord>(old_key).at(0);
    CHECK(reached.target == 2);
    CHECK(reached.target_reached);
    REQUIRE(reached.time_to_target_s);
    CHECK(reached.steps == 2);
    CHECK_THAT(formatTargetOutcome(reached),
               Catch::StartsWith("reached acc 2.0% at step 2: time to accuracy"));
}
