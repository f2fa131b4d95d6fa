// Reads MLPerf Training's ":::MLLOG {json}" log lines (mlperf-logging's mllog) as header, eval and summary
// records.
#pragma once

#include "output_reader.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace scalebench {

// One MLPerf Training run's log (one result_N.txt, or the job's stdout with rank prefixes and other output):
// a HeaderRecord at run_start, an EvalRecord per eval_accuracy, a SummaryRecord at run_stop. Lines without
// ":::MLLOG" are skipped; one whose JSON cannot be read is broken. Several ranks often log the same lines:
// the first run_start and run_stop count, and an eval_accuracy identical to one read (time_ms, value, step)
// is skipped.
class MllogReader : public OutputReader {
  public:
    explicit MllogReader(OutputContext context);

  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;
    void readEnd(std::vector<MetricRecord>& out) override;

  private:
    void writeHeader(std::vector<MetricRecord>& out);
    std::string metricOf(const std::string& key, const nlohmann::json& metadata) const;
    void readEval(double time_ms, double value, const std::string& metric, std::optional<std::int64_t> epoch,
                  std::optional<std::int64_t> samples, std::vector<MetricRecord>& out);
    void readRunStop(double time_ms, const std::string& status, std::optional<std::int64_t> epoch,
                     std::optional<std::int64_t> samples, std::vector<MetricRecord>& out);

    OutputContext context_;
    std::string benchmark_;                              // submission_benchmark's value: "bert"; "" before it
    std::map<std::string, std::string> submission_;      // submission_* keys without the prefix -> JSON value
    std::map<std::string, std::string> hyperparameters_; // POINT_IN_TIME keys before run_start -> JSON value
    std::optional<double> run_start_ms_;
    bool header_written_ = false;
    bool stopped_ = false; // run_stop was read
    std::int64_t evals_ = 0;
    std::optional<double> last_eval_;
    std::optional<double> best_eval_;
    std::optional<std::int64_t> last_epoch_;
    std::optional<std::int64_t> last_samples_;
    std::set<std::tuple<double, double, std::int64_t>> evals_read_; // (time_ms, value, step)
};

} // namespace scalebench
