// scalebench-engine: under mpirun, trains a workload data-parallel or sweeps collectives, writing the metric
// stream (rank 0).
#include "collective_sweep.h"
#include "device_check.h"
#include "engine_options.h"
#include "metric_stream.h"
#include "metric_writer.h"
#include "mpi_check.h"
#include "open_communicator.h"
#include "training_loop.h"
#include "world.h"

#include <chrono>
#include <iostream>
#include <optional>
#include <torch/torch.h>
#include <torch/version.h>

using namespace scalebench;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// MLBench task 0: the collective sweep, one collective record per message size and case.
int sweep(const EngineOptions& o, const World& w) {
    // A sweep computes nothing with LibTorch: one intra-op thread, so that no OpenMP worker spins beside the
    // ranks (on 2 cores, OMP's idle spinning doubled small-message latency and cost 6% at 1 MB).
    torch::set_num_threads(1);
    const json ranks = gatherRanks(w);
    const auto comm = openCommunicator(o, MPI_COMM_WORLD, w.local_rank, std::nullopt);
    std::vector<std::string> skipped;
    const auto cases = sweepCases(o, *comm, skipped);
    std::optional<MetricWriter> metrics; // only rank 0 talks
    if (w.rank == 0) {
        namespace field = metric_stream::header;
        namespace hyper = field::sweep_hyperparameters;
        metrics.emplace(o.metrics);
        json header = headerRecord(o, w, ranks);
        header[field::kHyperparameters] = {
            {hyper::kSizes,
             "logspace(0, sweep_max_log10, sweep_points) elements; all-gather, reduce-scatter and "
             "all-to-all: elements / ranks per rank, the record giving the whole buffer (nccl-tests)"},
            {hyper::kSweepPoints, o.sweep_points},
            {hyper::kSweepMaxLog10, o.sweep_max_log10},
            {hyper::kRepetitions, o.repetitions},
            {hyper::kWarmupIterations, o.warmup_iterations},
            {hyper::kCollectives, o.collectives},
            {hyper::kDtypes, o.dtypes},
            {hyper::kOps, o.ops},
            {hyper::kInPlace, o.in_place},
            {hyper::kTiming, o.timing}};
        header[field::kBackend] = comm->backend();
        header[field::kAllreduce] = comm->description();
        if (!skipped.empty()) header[field::kSkipped] = skipped;
        metrics->write(header);
    }
    const auto start = Clock::now();
    if (!runCollectiveSweep(o, cases, *comm, MPI_COMM_WORLD, metrics ? &*metrics : nullptr))
        throw std::runtime_error(comm->backend() +
                                 ": a collective gave a wrong result for at least one message "
                                 "size (see the records whose correct is false)");
    namespace field = metric_stream::summary;
    if (metrics)
        metrics->write({{metric_stream::kType, field::kRecord},
                        {field::kSteps, 0},
                        {field::kWallS, seconds(start, Clock::now())},
                        {field::kSamplesPerS, 0},
                        {field::kFinalLoss, 0},
                        {field::kFinalAccuracy, nullptr}});
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    EngineOptions options;
    try {
        options = parseEngineOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        std::cerr << "scalebench-engine: " << e.what() << " (scalebench-engine --help lists every option)\n";
        return 2;
    }
    if (options.show_help) {
        std::cout << engineUsage();
        return 0;
    }
    if (options.show_version) {
        std::cout << "scalebench-engine " << SCALEBENCH_VERSION << " (LibTorch " << TORCH_VERSION << ")\n";
        return 0;
    }

    // The gradient buckets' communication thread calls MPI while the main thread may too. A sweep calls MPI
    // from the main thread only, no other thread touches it, and it asks for MPI_THREAD_SINGLE, what MPI_Init
    // (and so osu_allreduce) runs under: Open MPI turns its locks on for every level above that
    // (ompi_mpi_init: opal_set_using_threads when provided != SINGLE), and they cost a 4-byte all-reduce on 2
    // cores about 0.15 of its 0.3 us (bench/results/2026-11-22-thread-level.md).
    const bool sweeping = options.workload == "allreduce-sweep";
    int threading = 0;
    MPI_Init_thread(&argc, &argv, sweeping ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &threading);
    World world;
    try {
        world = joinWorld();
        if (!sweeping && threading < MPI_THREAD_SERIALIZED && options.backend == "mpi")
            throw std::runtime_error(
                "this MPI library gives no thread support beyond MPI_THREAD_FUNNELED, which "
                "the communication thread of --backend mpi needs");
        if (options.check_device) {
            if (!runDeviceCheck(options, world))
                throw std::runtime_error("--check-device: the device self-check failed (see the device_check "
                                         "record's checks)");
        } else if (options.workload == "allreduce-sweep")
            sweep(options, world);
        else
            trainWorkload(options, world);
    } catch (const std::exception& e) {
        std::cerr << "scalebench-engine: rank " << world.rank << " on " << world.host << ": " << e.what()
                  << std::endl;
        if (world.rank == 0 && !options.metrics.empty()) {
            try {
                if (auto own = MetricWriter::forLastWords(options.metrics))
                    own->write({{metric_stream::kType, metric_stream::error::kRecord},
                                {metric_stream::error::kRank, 0},
                                {metric_stream::error::kMessage, e.what()}});
            } catch (...) {
            }
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    MPI_Finalize();
    return 0;
}
