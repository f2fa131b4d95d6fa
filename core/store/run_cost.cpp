// What a session's runs cost.
#include "run_cost.h"

#include "cluster_settings.h"

#include <algorithm>
#include <fmt/format.h>

namespace scalebench {

GpuHourPrice sessionPrice(const SessionRow& session) {
    if (session.cluster_json.empty()) return {};
    const ClusterSettings cluster = clusterFromJson(session.cluster_json);
    return {cluster.price_per_gpu_hour, cluster.currency};
}

std::optional<double> runGpuHours(const RunResult& run) {
    if (!run.wall_s) return std::nullopt;
    return run.ranks * *run.wall_s / 3600;
}

std::optional<double> runCost(const RunResult& run, const GpuHourPrice& price) {
    const std::optional<double> hours = runGpuHours(run);
    if (!hours || !(price.per_gpu_hour > 0)) return std::nullopt;
    return *hours * price.per_gpu_hour;
}

std::optional<double> runCostToTrain(const RunResult& run, const GpuHourPrice& price) {
    if (!(price.per_gpu_hour > 0)) return std::nullopt;
    std::optional<double> seconds;
    if (run.time_to_target_s && run.target_reached) seconds = *run.time_to_target_s;
    if (!seconds && run.mlperf_time_to_train_min && run.mlperf_status == "success")
        seconds = *run.mlperf_time_to_train_min * 60;
    if (!seconds) return std::nullopt;
    return run.ranks * *seconds / 3600 * price.per_gpu_hour;
}

std::string formatRunCosts(const std::vector<RunResult>& runs, const GpuHourPrice& price) {
    if (!(price.per_gpu_hour > 0)) return "";
    const bool to_train = std::any_of(
        runs.begin(), runs.end(), [&](const RunResult& r) { return runCostToTrain(r, price).has_value(); });
    std::string out = fmt::format("{:<34} {:>5} {:>6} {:>10} {:>10} {:>12}", "run", "ranks", "status",
                                  "wall s", "GPU-h", "cost " + price.currency);
    out += to_train ? fmt::format(" {:>15}\n", "to train " + price.currency) : "\n";
    double total_hours = 0, total_cost = 0;
    for (const RunResult& r : runs) {
        const std::optional<double> hours = runGpuHours(r);
        const std::optional<double> cost = runCost(r, price);
        if (hours && cost) {
            total_hours += *hours;
            total_cost += *cost;
        }
        out += fmt::format("{:<34} {:>5} {:>6} {:>10} {:>10} {:>12}", r.name, r.ranks, storedWord(r.status),
                           r.wall_s ? fmt::format("{:.1f}", *r.wall_s) : "-",
                           hours ? fmt::format("{:.4f}", *hours) : "-",
                           cost ? fmt::format("{:.2f}", *cost) : "-");
        const std::optional<double> train = runCostToTrain(r, price);
        out += to_train ? fmt::format(" {:>15}\n", train ? fmt::format("{:.2f}", *train) : "-") : "\n";
    }
    out += fmt::format("{:<34} {:>5} {:>6} {:>10} {:>10.4f} {:>12.2f}\n", "total", "", "", "", total_hours,
                       total_cost);
    out +=
        fmt::format("cost: GPU-hours x {:.2f} {} per GPU-hour (the cluster's price_per_gpu_hour; on CPU runs "
                    "a GPU is a rank); GPU-hours: ranks x wall time (the run's own, from its summary, else "
                    "from its job's submission to its end)\n",
                    price.per_gpu_hour, price.currency);
    if (to_train)
        out +=
            "to train: ranks x the time to the run's target (time to accuracy, or MLPerf's time to train) x "
            "the price\n";
    return out;
}

} // namespace scalebench
