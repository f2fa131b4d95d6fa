// Predicted scaling: the step time at N ranks from the compute time the runs measured and the gradient
// all-reduce time predicted from the collective sweep, less the overlap the runs measured; throughput,
// speedup, efficiency, time to train, tokens/s and days to 1T tokens follow (docs/performance-model.md).
#pragma once

#include "analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// One measured all-reduce: N ranks, a message of `bytes`, seconds per call (the sweep's time_s).
struct SweepPoint {
    int ranks = 0;
    double bytes = 0;
    double time_s = 0;
};

// The all-reduce cost model, t(b, N) = 2 ceil(log2 N) alpha + 2 (N - 1) / N x b / busbw (a tree's latency, a
// ring's volume), fitted to the sweep by least squares on relative error, within a node (N <= ranks_per_node)
// and across nodes apart; or stated (link figures from a data sheet or another tool, `project --inputs`).
struct LinkFit {
    double alpha_s = 0;       // latency per step
    double busbw_bytes_s = 0; // bus bandwidth
    double relative_rms = 0;  // the fit's root-mean-square relative residual over its points
    int points = 0;           // sweep points it was fitted to (0: no fit)
    bool stated = false;      // given, not fitted: points and relative_rms are 0
};
struct CommCostModel {
    int ranks_per_node = 1;         // the layout predicted for
    int sweep_ranks_per_node = 1;   // the layout the sweep ran with: which of its points crossed a node
    LinkFit intra{};                // ranks on one node
    std::optional<LinkFit> inter{}; // ranks across nodes; none where the sweep never crossed a node
};
LinkFit fitLink(const std::vector<SweepPoint>& points);
// sweep_ranks_per_node: where the sweep's node boundaries lay (0: at ranks_per_node).
CommCostModel fitCommCost(const std::vector<SweepPoint>& sweep, int ranks_per_node,
                          int sweep_ranks_per_node = 0);

// The time of one all-reduce of `bytes` at N ranks: the sweep's own times at N interpolated in log size where
// N was measured, `bytes` lies within its sizes and N crosses a node in the sweep's layout exactly where it
// does in the predicted one. Otherwise (extrapolated) the cost model; where the sweep measured `bytes` at
// another rank count on the same side of a node boundary, that time scaled by the model's t(b, N) / t(b,
// N_sweep) (the nearest such N_sweep). 0 at one rank.
struct CommPrediction {
    double time_s = 0;
    double relative_error = 0; // the band's half-width as a fraction: 0 measured, 2 x the fit's rms modelled
    bool extrapolated = false;
    bool inter_node_unmeasured =
        false; // across nodes with no sweep across nodes: the intra-node fit stands in
};
CommPrediction allreduceTime(const std::vector<SweepPoint>& sweep, const CommCostModel& model, int ranks,
                             double bytes);

// One measured rank count of a training series: per-step seconds over its repeats (steady state).
struct MeasuredPoint {
    int ranks = 0;
    Statistics compute_s{}; // data + forward + backward + optimizer: the step without exposed communication
    Statistics exposed_s{}; // exposed communication
    Statistics hidden_s{};  // communication hidden behind backward
    Statistics samples_per_s{};
};

enum class ScalingMode {
    Weak,            // the batch per rank stays: the global batch grows with N
    FixedGlobalBatch // the global batch stays: each rank's share shrinks with N
};

struct ModelInputs {
    std::vector<MeasuredPoint> measured; // by rank count, at least one
    std::vector<SweepPoint> sweep;       // all-reduce of the training's data type and backend
    std::vector<double> bucket_bytes;    // the gradient buckets (header bucket_elements x element size)
    int batch_per_rank = 0;              // at the measured points
    ScalingMode mode = ScalingMode::Weak;
    int global_batch = 0;         // FixedGlobalBatch: the batch that stays
    int ranks_per_node = 1;       // where a node boundary lies in the prediction
    int sweep_ranks_per_node = 0; // where it lay when the sweep and runs were measured (0: the same)
    int seq_len = 0;              // language workloads: tokens per sample (tokens/s, days to 1T)
    double samples_to_train = 0;  // time to train (0: none)
    int cpus_per_node = 0;        // CPU training: the node's usable CPUs (0: not CPU-bound)
    // Stated instead of measured (`project --inputs`, seeds' figures): link figures that replace the fit (the
    // sweep may then be empty), and the hidden fraction of communication.
    std::optional<LinkFit> stated_intra{}, stated_inter{};
    std::optional<double> stated_hidden_fraction{};
    double price_per_gpu_hour = 0; // cost (0: none); on CPU runs a "GPU" is a rank
    std::string currency = "USD";  // the price's (ISO 4217): what the cost columns are in
};

struct Projection {
    int ranks = 0;
    bool measured = false; // a measured rank count at its measured batch per rank (checked against it)
    double measured_samples_per_s = 0; // there: the runs' mean throughput
    double compute_s = 0;
    double comm_s = 0;                                  // all buckets' all-reduce time, predicted
    double exposed_s = 0;                               // of it, not hidden: comm x (1 - hidden fraction)
    double step_s = 0, step_low_s = 0, step_high_s = 0; // compute + exposed, and its band
    double samples_per_s = 0, samples_low = 0, samples_high = 0;
    double speedup = 0; // X(N) / X(N0), N0 the smallest measured rank count (measured throughput)
    double efficiency = 0;
    double time_to_train_s = 0; // samples_to_train / X(N); 0 without
    double tokens_per_s = 0;
    double days_to_1t_tokens = 0;
    double cost_per_hour = 0; // N x price per GPU-hour (0 without a price)
    double cost_to_train = 0; // cost_per_hour x time to train in hours (0 without either)
    bool extrapolated = false;
    std::vector<std::string> notes{}; // why it extrapolates, and what this regime means
};

// Every rank count asked for, in order. Throws std::invalid_argument naming what is missing: no measured
// point, no sweep (communication cannot be predicted), no buckets, a rank count below 1.
// The hidden fraction h = hidden / (hidden + exposed) at the largest measured rank count above one (0 where
// every run had one rank).
double hiddenFraction(const ModelInputs& inputs);
// The link model the projection uses: stated links where given, else fitted to the sweep.
CommCostModel commCostModel(const ModelInputs& inputs);
// All buckets' all-reduce time at N ranks (no overlap taken off).
double stepCommunication(const ModelInputs& inputs, int ranks);
std::vector<Projection> project(const ModelInputs& inputs, const std::vector<int>& ranks);

// The rank count that trains at the least cost within `deadline_s` seconds: of the rows with a time and a
// cost to train (samples to train and a price given), those whose time to train is at most the deadline, the
// one with the least cost to train (on a tie, the faster). None where no row meets the deadline.
std::optional<Projection> cheapestForDeadline(const std::vector<Projection>& rows, double deadline_s);

// The projection as a terminal table (`scalebench project`).
std::string formatProjection(const ModelInputs& inputs, const std::vector<Projection>& rows);

} // namespace scalebench
