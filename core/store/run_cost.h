// What a session's runs cost: each run's wall time x its ranks x the price of a GPU-hour on the cluster it
// ran on (docs/performance-model.md, "Cost").
#pragma once

#include "results_table.h"
#include "stored_rows.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

struct GpuHourPrice {
    double per_gpu_hour = 0;      // 0: no price, no costs
    std::string currency = "USD"; // ISO 4217
};

// The price in the cluster's settings the session ran with (ClusterSettings::price_per_gpu_hour); none on
// this machine.
GpuHourPrice sessionPrice(const SessionRow& session);

// GPU-hours the run held: ranks x its wall time in hours (on CPU runs a "GPU" is a rank); none without a wall
// time.
std::optional<double> runGpuHours(const RunResult& run);
// Its GPU-hours x the price; none without a price or a wall time.
std::optional<double> runCost(const RunResult& run, const GpuHourPrice& price);

// A time-to-train run's cost to train: ranks x its time to its target (MLBench's time to accuracy, or
// MLPerf's time to train from its MLLOG) x the price; none for a run that did not reach a target, or without
// a price.
std::optional<double> runCostToTrain(const RunResult& run, const GpuHourPrice& price);

// Each run's wall time, GPU-hours and cost (and cost to train where a run reached its target), and the
// session's total, as a terminal table; "" without a price.
std::string formatRunCosts(const std::vector<RunResult>& runs, const GpuHourPrice& price);

} // namespace scalebench
