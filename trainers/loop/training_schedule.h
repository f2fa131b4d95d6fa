// How long a run trains and when it evaluates: the options a workload is built with (the data set's folder,
// the micro-batch of --global-batch, the held-out size), the steps of --epochs and the evaluations of
// --eval-every -1 (after each data pass).
#pragma once

#include "engine_options.h"
#include "workload.h"
#include "world.h"

#include <cstdint>

namespace scalebench {

// The options as the workload is built with them: --data-dir, where empty, SCALEBENCH_DATA_ROOT/DATASET, and
// refused where a real data set's folder is missing; with --global-batch, batch_per_rank the micro-batch of
// engine_cli::splitGlobalBatch; --eval-samples 0 kept for the workloads that read their whole held-out set,
// else their earlier default. Throws std::invalid_argument or std::runtime_error naming option, data set and
// numbers.
EngineOptions workloadOptions(const EngineOptions& given, const World& world);

class TrainingSchedule {
  public:
    // `options` as workloadOptions gave them. With --epochs or --eval-every -1 the workload must know its
    // data pass (Workload::trainingSamples); rank 0's is used everywhere. Collective.
    TrainingSchedule(const EngineOptions& options, const Workload& workload, const World& world);

    int64_t steps() const { return steps_; }
    int64_t accumulation() const { return accumulation_; }
    int64_t globalBatch() const { return global_batch_; }
    int64_t trainingSamples() const { return training_samples_; } // one data pass, all ranks; 0: unknown
    // An evaluation after step (1-based): every eval_every steps, after a step that ends a data pass
    // (eval_every -1), and after the last.
    bool evaluatesAfter(int64_t step) const;

  private:
    int eval_every_ = 0;
    int64_t steps_ = 0, accumulation_ = 1, global_batch_ = 0, training_samples_ = 0;
};

} // namespace scalebench
