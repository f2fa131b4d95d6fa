// What a plan expects of its runs, as ReFrame's references: a figure's reference value with lower and upper
// bounds as fractions of it, for the runs of one workload (at one rank count, on one cluster, or all).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// A plan's [[reference]]: passes where value x (1 + lower) <= measured <= value x (1 + upper) (ReFrame's
// thresholds: lower -0.1 and upper 0.1 are 10 % either way; a bound left out does not bound).
struct Reference {
    std::string workload;       // the runs' workload (a command's name)
    std::optional<int> ranks{}; // at this rank count only; none: every one
    std::string cluster{};      // on this cluster only ("local": this machine); "": any
    std::string figure;         // a figure's reference name (referenceFigures(), figure_registry.h)
    double value = 0;
    std::optional<double> lower{};       // fraction of value, <= 0
    std::optional<double> upper{};       // fraction of value, >= 0
    std::string unit{};                  // the figure's, as the plan wrote it (checked)
    std::optional<std::int64_t> bytes{}; // busbw_gbps: the message size
    int line = 0;                        // where the [[reference]] starts in the plan

    friend bool operator==(const Reference&, const Reference&) = default;
};

} // namespace scalebench
