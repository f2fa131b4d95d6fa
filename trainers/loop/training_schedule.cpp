// The run's length and evaluations from --steps or --epochs, --global-batch and --eval-every.
#include "training_schedule.h"

#include "batch_split.h"
#include "mpi_check.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace scalebench {
namespace {

// Held-out samples of the workloads that do not read "the whole set" for --eval-samples 0 yet (the engine's
// earlier default).
constexpr int kDefaultHeldOutSamples = 2000;

// Data sets the engine reads from files (the others it makes: synthetic-*; a name no workload knows is
// refused by makeWorkload, which lists the workload's own).
bool readsFiles(const std::string& dataset) {
    for (const char* name : {"fashion-mnist", "cifar10", "libsvm", "wikitext2", "wmt"})
        if (dataset == name) return true;
    return false;
}

// Image classification (resnet20, resnet56) reads its whole held-out set for --eval-samples 0.
bool readsWholeHeldOut(const std::string& dataset) {
    return dataset == "fashion-mnist" || dataset == "cifar10" || dataset == "synthetic-cifar";
}

} // namespace

EngineOptions workloadOptions(const EngineOptions& given, const World& world) {
    EngineOptions o = given;
    if (o.data_dir.empty()) o.data_dir = std::string(SCALEBENCH_DATA_ROOT) + "/" + o.dataset;
    if (readsFiles(o.dataset) && !std::filesystem::is_directory(o.data_dir))
        throw std::runtime_error(
            "dataset '" + o.dataset + "': its folder '" + o.data_dir +
            "' does not exist (--data-dir; a plan's data_dir, else the cluster's data_root/" + o.dataset +
            ")");
    if (o.global_batch > 0) {
        const auto split = engine_cli::splitGlobalBatch(o.global_batch, world.ranks, o.batch_per_rank);
        o.batch_per_rank = split.batch_per_rank;
    }
    if (o.eval_samples == 0 && !readsWholeHeldOut(o.dataset)) o.eval_samples = kDefaultHeldOutSamples;
    return o;
}

TrainingSchedule::TrainingSchedule(const EngineOptions& o, const Workload& workload, const World& world)
    : eval_every_(o.eval_every), steps_(o.steps), accumulation_(accumulationOf(o, world)),
      global_batch_(globalBatchOf(o, world)) {
    if (o.epochs > 0 || o.eval_every < 0) {
        // Every rank's shard may hold a sample more or less: rank 0's count decides for all.
        training_samples_ = workload.trainingSamples();
        MPI_CHECK(MPI_Bcast(&training_samples_, 1, MPI_INT64_T, 0, MPI_COMM_WORLD));
        if (training_samples_ <= 0)
            throw std::invalid_argument(std::string(o.epochs > 0 ? "--epochs" : "--eval-every -1") + ": " +
                                        o.workload + " on " + o.dataset +
                                        " does not say how many samples a data pass holds; give " +
                                        (o.epochs > 0 ? "--steps" : "--eval-every in steps"));
    }
    if (o.epochs > 0)
        steps_ = std::max<int64_t>(
            1, static_cast<int64_t>(std::ceil(o.epochs * static_cast<double>(training_samples_) /
                                              static_cast<double>(global_batch_))));
}

bool TrainingSchedule::evaluatesAfter(int64_t step) const {
    if (step == steps_) return true;
    if (eval_every_ > 0) return step % eval_every_ == 0;
    if (eval_every_ < 0) // the step whose samples cross a multiple of the data pass
        return step * global_batch_ / training_samples_ > (step - 1) * global_batch_ / training_samples_;
    return false;
}

} // namespace scalebench
