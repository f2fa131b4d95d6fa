// The training step's device-agnostic parts on the CPU, the loop the GPU runs: a step's batches are the
// workload's own, in order, with their data pass; the step clock's phases add up to the step.
#include "device_batches.h"
#include "one_rank_mpi.h"
#include "step_clock.h"
#include "training_schedule.h"
#include "workload.h"

#include <catch2/catch.hpp>
#include <thread>
#include <torch/torch.h>

using namespace scalebench;

namespace {

EngineOptions syntheticResnet20() {
    EngineOptions o;
    o.workload = "resnet20";
    o.dataset = "synthetic-cifar";
    o.batch_per_rank = 4;
    o.eval_samples = 8;
    return o;
}

} // namespace

TEST_CASE("on the CPU a step's batches are the workload's own, in order, with their data pass, and prefetch "
          "moves nothing",
          "[engine][step]") {
    oneRankWorld(); // the workload's data shards ask MPI
    const EngineOptions options = syntheticResnet20();
    const World world;
    torch::manual_seed(1);
    const auto reference = makeWorkload(options, world);
    torch::manual_seed(1);
    const auto workload = makeWorkload(options, world);
    DeviceBatches batches(*workload, torch::Device(torch::kCPU));
    for (int step = 1; step <= 3; ++step) {
        batches.prefetch(); // nothing on the CPU: the workload's position stays where it is
        const Batch expected = reference->nextBatch();
        const Batch taken = batches.take();
        CHECK(batches.epoch() == reference->epoch());
        CHECK(taken.samples == expected.samples);
        REQUIRE(taken.tensors.size() == expected.tensors.size());
        for (std::size_t i = 0; i < taken.tensors.size(); ++i) {
            CHECK(taken.tensors[i].device().is_cpu());
            CHECK(torch::equal(taken.tensors[i], expected.tensors[i]));
        }
    }
}

TEST_CASE("on the CPU the step clock's phases are the host's time between marks and add up to the step",
          "[engine][step]") {
    StepClock clock(torch::Device(torch::kCPU));
    CHECK_FALSE(clock.onDevice());
    const StepClock::Mark marks[] = {StepClock::Start,    StepClock::Data,      StepClock::Forward,
                                     StepClock::Backward, StepClock::AllReduce, StepClock::Optimizer};
    for (const auto mark : marks) {
        clock.mark(mark);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    clock.finish();
    double parts = 0;
    for (int m = 1; m < StepClock::kMarks; ++m) {
        const double phase = clock.seconds(marks[m - 1], marks[m]);
        CHECK(phase >= 0.002);
        parts += phase;
    }
    CHECK(parts == Approx(clock.seconds(StepClock::Start, StepClock::Optimizer)));
}

TEST_CASE(
    "with gradient accumulation the step clock's phases add up the micro-batches' and still make the step",
    "[engine][step][accumulation]") {
    StepClock clock(torch::Device(torch::kCPU));
    clock.mark(StepClock::Start);
    for (int micro = 0; micro < 3; ++micro)
        for (const auto mark : {StepClock::Data, StepClock::Forward, StepClock::Backward}) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            clock.mark(mark);
        }
    clock.mark(StepClock::AllReduce);
    clock.mark(StepClock::Optimizer);
    clock.finish();
    CHECK(clock.phaseSeconds(StepClock::Backward) >= 3 * 0.002); // three micro-batches' backward
    double parts = 0;
    for (const auto mark : {StepClock::Data, StepClock::Forward, StepClock::Backward, StepClock::AllReduce,
                            StepClock::Optimizer})
        parts += clock.phaseSeconds(mark);
    CHECK(parts == Approx(clock.seconds(StepClock::Start, StepClock::Optimizer)));
}

TEST_CASE(
    "epochs give the steps of that many data passes, global_batch the micro-batch and accumulation, and "
    "eval_every -1 an evaluation after each data pass",
    "[engine][step][schedule]") {
    oneRankWorld();
    const World world;
    EngineOptions given = syntheticResnet20(); // 8 batches of 4 a data pass: 32 samples
    given.epochs = 2.5;
    given.eval_every = -1;
    {
        const EngineOptions o = workloadOptions(given, world);
        const auto workload = makeWorkload(o, world);
        const TrainingSchedule schedule(o, *workload, world);
        CHECK(schedule.trainingSamples() == 32);
        CHECK(schedule.steps() == 20); // ceil(2.5 x 32 / 4)
        CHECK(schedule.accumulation() == 1);
        std::vector<int64_t> evaluations;
        for (int64_t step = 1; step <= schedule.steps(); ++step)
            if (schedule.evaluatesAfter(step)) evaluations.push_back(step);
        CHECK(evaluations == std::vector<int64_t>{8, 16, 20});
    }
    given.global_batch = 8; // at most 4 a micro-batch on one rank: 2 micro-batches of 4
    const EngineOptions o = workloadOptions(given, world);
    CHECK(o.batch_per_rank == 4);
    const auto workload = makeWorkload(o, world);
    const TrainingSchedule schedule(o, *workload, world);
    CHECK(schedule.accumulation() == 2);
    CHECK(schedule.globalBatch() == 8);
    CHECK(schedule.steps() == 10); // ceil(2.5 x 32 / 8)
    CHECK(schedule.evaluatesAfter(4));
    CHECK_FALSE(schedule.evaluatesAfter(5));
    CHECK(workload->hyperparameters()["accumulation"] == 2);
    CHECK(workload->hyperparameters()["global_batch"] == 8);
    CHECK(workload->hyperparameters()["batch_per_rank"] == 4);
}

TEST_CASE(
    "task 1's plateau decay fires with an evaluation after each epoch, and never with one at the end only",
    "[engine][step][schedule]") {
    oneRankWorld();
    const World world;
    EngineOptions o = syntheticResnet20(); // 8 batches a data pass
    o.steps = 40;
    o.lr = 0.1;
    o.warmup_steps = 0;
    const auto lrAfterRun = [&](int eval_every) {
        o.eval_every = eval_every;
        const auto workload = makeWorkload(o, world);
        const TrainingSchedule schedule(o, *workload, world);
        for (int64_t step = 1; step <= schedule.steps(); ++step) {
            workload->nextBatch();
            if (schedule.evaluatesAfter(step)) workload->afterEvaluation({0.5, 1.0}); // a plateau: loss 1.0
        }
        return workload->learningRate(schedule.steps() + 1);
    };
    // Evaluated after steps 8, 16, 24, 32 and 40: no better loss at 16 and 24 (x0.1), then at 32 and 40
    // (x0.1).
    CHECK(lrAfterRun(-1) == Approx(0.001));
    CHECK(lrAfterRun(0) == Approx(0.1)); // one evaluation: no plateau is ever seen
}

TEST_CASE("a data set whose folder is missing is refused naming the data set, the folder and data_dir",
          "[engine][step][data_dir]") {
    EngineOptions o = syntheticResnet20();
    o.dataset = "cifar10";
    o.data_dir = "/nonexistent/cifar10";
    CHECK_THROWS_WITH(workloadOptions(o, World{}), Catch::Contains("dataset 'cifar10'") &&
                                                       Catch::Contains("'/nonexistent/cifar10'") &&
                                                       Catch::Contains("data_dir"));
    o.data_dir.clear(); // the engine's default: SCALEBENCH_DATA_ROOT/DATASET
    o.dataset = "synthetic-cifar";
    CHECK(workloadOptions(o, World{}).data_dir == std::string(SCALEBENCH_DATA_ROOT) + "/synthetic-cifar");
}
