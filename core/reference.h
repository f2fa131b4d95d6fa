// What a plan expects of its runs, as ReFrame's references: a figure's reference value with lower and upper
// bounds as fractions of it, for the runs of one workload (at one rank count, on one cluster, or all).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// The figures a reference may bound, with their units: throughput, step time, time to quality, MFU, scaling
// efficiency and a collective's bus bandwidth at one message size.
struct ReferenceFigure {
    std::string name;
    std::string unit;
};
inline const std::vector<ReferenceFigure> kReferenceFigures = {{"samples_per_s", "samples/s"},
                                                               {"tokens_per_s", "tokens/s"},
                                                               {"step_time_ms", "ms"},
                                                               {"time_to_target_s", "s"},
                                                               {"time_to_train_min", "min"},
                                                               {"mfu", "%"},
                                                               {"efficiency", "%"},
                                                               {"busbw_gbps", "GB/s"}};

// A plan's [[reference]]: passes where value x (1 + lower) <= measured <= value x (1 + upper) (ReFrame's
// thresholds: lower -0.1 and upper 0.1 are 10 % either way; a bound left out does not bound).
struct Reference {
    std::string workload;       // the runs' workload (a command's name)
    std::optional<int> ranks{}; // at this rank count only; none: every one
    std::string cluster{};      // on this cluster only ("local": this machine); "": any
    std::string figure;         // one of kReferenceFigures
    double value = 0;
    std::optional<double> lower{};       // fraction of value, <= 0
    std::optional<double> upper{};       // fraction of value, >= 0
    std::string unit{};                  // the figure's, as the plan wrote it (checked)
    std::optional<std::int64_t> bytes{}; // busbw_gbps: the message size
    int line = 0;                        // where the [[reference]] starts in the plan

    friend bool operator==(const Reference&, const Reference&) = default;
};

} // namespace scalebench
