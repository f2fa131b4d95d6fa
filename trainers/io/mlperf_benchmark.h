// The MLPerf Training benchmark each engine workload stands in for in its compliance log (--mllog), and the
// ruleset of mlperf-logging 4.1.68's compliance checker that its log is checked against: one table.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

struct MlperfBenchmark {
    std::string workload;  // the engine's name (--workload)
    std::string benchmark; // submission_benchmark; empty: the workload claims none
    std::string ruleset;   // training ruleset for --ruleset of the compliance checker, e.g. "4.0.0"
};

// Every workload the engine trains, in the engine's order, with its benchmark or none.
const std::vector<MlperfBenchmark>& mlperfBenchmarks();
// The workload's row when it claims a benchmark; nullopt for one that claims none or an unknown name.
std::optional<MlperfBenchmark> mlperfBenchmarkOf(const std::string& workload);

// MLPerf 6.1's lowest_numerical_precision_in_* word for a run's --precision (fp32, bf16, fp16); fp32 matrix
// products on TF32 tensor cores (--tf32 on a GPU) are "tf32".
std::string mlperfPrecision(const std::string& precision, bool tf32);

} // namespace scalebench
