// MLPerf's compliance log of a training run (--mllog, rank 0): opened with init_start, the training session's
// keys, epoch_start and epoch_stop around every data pass, and run_stop (success where the quality target was
// reached; aborted otherwise, and on an error). The loop logs init_stop, run_start and the evaluations.
#pragma once

#include "engine_options.h"
#include "mllog_writer.h"
#include "training_schedule.h"
#include "workload.h"
#include "world.h"

#include <cstdint>
#include <exception>
#include <memory>

namespace scalebench {

// MLPerf's compliance log (--mllog, rank 0), opened with init_start; nullptr elsewhere.
std::unique_ptr<MllogWriter> openMllog(const EngineOptions& o, const World& w);

// The MLPerf compliance log's training-session keys (mlcommons/logging constants.py), as the open division of
// the workload's benchmark wants them (mlperf_benchmark.h; docs/workloads.md). tf32: fp32 matrix products run
// on TF32 tensor cores (--tf32 on a GPU).
void logRunInfo(MllogWriter& log, const EngineOptions& o, const World& w, const Workload& workload,
                const TrainingSchedule& schedule, bool tf32);

// MLPerf: a run that ends in an error stops with status "aborted".
struct RunStopOnError {
    MllogWriter* log;
    const int exceptions = std::uncaught_exceptions();
    ~RunStopOnError();
};

// MLPerf's epoch_start and epoch_stop events around every data pass (epochs counted from 1); nothing without
// a log.
class MllogEpochs {
  public:
    explicit MllogEpochs(MllogWriter* log) : log_(log) {}
    // Before the forward pass: closes the previous epoch and opens the batch's when it changed.
    void enter(int64_t epoch);
    // After the last step: closes the open epoch.
    void close();

  private:
    MllogWriter* log_;
    int64_t epoch_ = -1; // the epoch whose epoch_start the log holds
};

// After the last step: closes the open epoch, then run_stop. MLPerf: success only where the quality target
// was reached (its time to train is a time to quality); a run without a target, or short of it, is aborted
// however it ended.
void logRunStop(MllogWriter& log, MllogEpochs& epochs, bool target_reached);

} // namespace scalebench
