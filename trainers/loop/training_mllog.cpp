// MLPerf's compliance log of a training run (--mllog, rank 0): init_start, the session's keys, the epochs and
// run_stop.
#include "training_mllog.h"

#include "metric_stream.h"
#include "mlperf_benchmark.h"

#include <nlohmann/json.hpp>
#include <string>

namespace scalebench {

using nlohmann::json;

std::unique_ptr<MllogWriter> openMllog(const EngineOptions& o, const World& w) {
    if (w.rank != 0 || o.mllog.empty()) return nullptr;
    auto log = std::make_unique<MllogWriter>(o.mllog);
    log->start("init_start");
    return log;
}

void logRunInfo(MllogWriter& log, const EngineOptions& o, const World& w, const Workload& workload,
                const TrainingSchedule& schedule, bool tf32) {
    const json hp = workload.hyperparameters();
    // A workload without an MLPerf benchmark names none rather than one the checker would look up as its own.
    if (const auto benchmark = mlperfBenchmarkOf(o.workload))
        log.event("submission_benchmark", benchmark->benchmark);
    log.event("submission_org", o.mllog_org);
    log.event("submission_division", "open"); // a proxy is never a closed result
    log.event("submission_status", "research");
    log.event("submission_platform", std::to_string(w.ranks) + "x" + w.host);
    log.event("cache_clear", false); // the engine drops no page cache before a run
    log.event("seed", o.seed);
    log.event("global_batch_size", schedule.globalBatch());
    log.event("gradient_accumulation_steps", schedule.accumulation());
    log.event("opt_base_learning_rate", hp.value("base_lr", o.lr));
    if (hp.contains("warmup_steps")) log.event("opt_learning_rate_warmup_steps", hp["warmup_steps"]);
    json fields = workload.mllogFields(); // items() refers to it
    // One data pass over every rank where the workload knows it (--epochs counts them), else the samples the
    // run trains on (steps x global batch: synthetic streams).
    if (!fields.contains("train_samples"))
        fields["train_samples"] = schedule.trainingSamples() > 0 ? schedule.trainingSamples()
                                                                 : schedule.steps() * schedule.globalBatch();
    for (const auto& [key, value] : fields.items())
        log.event(key, value);
    // MLPerf 6.1's disclosure: autocast casts every matrix product (attention's too) to the run's precision;
    // gradients are averaged in fp32 (gradient_buckets.h); data parallelism only, over w.ranks ranks.
    const std::string precision = mlperfPrecision(o.precision, tf32);
    log.event("lowest_numerical_precision_in_linear", precision);
    log.event("lowest_numerical_precision_in_attn", precision);
    log.event("lowest_numerical_precision_in_comm", "fp32");
    for (const char* parallelism :
         {"tensor_parallelism", "pipeline_parallelism", "context_parallelism", "expert_parallelism"})
        log.event(parallelism, 1);
    log.event("micro_batch_size", o.batch_per_rank);   // a rank's micro-batch
    log.event("config_filename", "scalebench-engine"); // no file: the options on its command line
}

RunStopOnError::~RunStopOnError() {
    namespace run_stop = metric_stream::mllog_run_stop;
    if (log && std::uncaught_exceptions() > exceptions) try {
            log->end("run_stop", nullptr, {{run_stop::kStatus, run_stop::kAborted}});
        } catch (...) {
        }
}

void MllogEpochs::enter(int64_t epoch) {
    if (!log_ || epoch == epoch_) return;
    if (epoch_ >= 0) log_->end("epoch_stop", nullptr, {{"epoch_num", epoch_ + 1}});
    epoch_ = epoch;
    log_->start("epoch_start", nullptr, {{"epoch_num", epoch_ + 1}});
}

void MllogEpochs::close() {
    if (log_ && epoch_ >= 0) log_->end("epoch_stop", nullptr, {{"epoch_num", epoch_ + 1}});
}

void logRunStop(MllogWriter& log, MllogEpochs& epochs, bool target_reached) {
    namespace run_stop = metric_stream::mllog_run_stop;
    epochs.close();
    log.end("run_stop", nullptr,
            {{run_stop::kStatus, target_reached ? run_stop::kSuccess : run_stop::kAborted}});
}

} // namespace scalebench
