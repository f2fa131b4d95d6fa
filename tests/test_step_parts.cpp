// The training step's device-agnostic parts on the CPU, the loop the GPU runs: a step's batches are the
// workload's own, in order, with their data pass; the step clock's phases add up to the step.
#include "device_batches.h"
#include "one_rank_mpi.h"
#include "step_clock.h"
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
