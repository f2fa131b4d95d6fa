// Predicted scaling from measured compute, the collective sweep and the measured overlap
// (docs/performance-model.md).
#include "performance_model.h"

#include "bus_bandwidth.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <stdexcept>

namespace scalebench {
namespace {

// The all-reduce's terms: 2 ceil(log2 N) latency steps (a tree or recursive doubling, what NCCL and MPI
// libraries choose for latency-bound sizes; a ring's 2 (N - 1) would grow without bound at thousands of
// ranks), and a ring's 2 (N - 1) / N of the message over each link (its bandwidth-optimal volume).
double latencySteps(int ranks) {
    return ranks > 1 ? 2.0 * std::ceil(std::log2(static_cast<double>(ranks))) : 0.0;
}
double busBytes(int ranks, double bytes) {
    return busBandwidthFactor("allreduce", ranks) * bytes;
}

double modelTime(const LinkFit& fit, int ranks, double bytes) {
    return latencySteps(ranks) * fit.alpha_s + busBytes(ranks, bytes) / fit.busbw_bytes_s;
}

// The sweep's sizes at `ranks`, by size (a size measured twice: the last).
std::map<double, double> timesAt(const std::vector<SweepPoint>& sweep, int ranks) {
    std::map<double, double> out;
    for (const SweepPoint& p : sweep)
        if (p.ranks == ranks && p.bytes > 0 && p.time_s > 0) out[p.bytes] = p.time_s;
    return out;
}

// Interpolated in log size and log time between the measured sizes around `bytes`; none outside them.
std::optional<double> interpolated(const std::map<double, double>& times, double bytes) {
    if (times.empty() || bytes < times.begin()->first || bytes > times.rbegin()->first) return std::nullopt;
    const auto upper = times.lower_bound(bytes);
    if (upper->first == bytes) return upper->second;
    const auto lower = std::prev(upper);
    const double f = std::log(bytes / lower->first) / std::log(upper->first / lower->first);
    return std::exp(std::log(lower->second) + f * std::log(upper->second / lower->second));
}

// The measured point whose compute stands for N ranks: the largest measured rank count up to N, else the
// smallest measured.
const MeasuredPoint& referencePoint(const std::vector<MeasuredPoint>& measured, int ranks) {
    const MeasuredPoint* below = nullptr;
    const MeasuredPoint* smallest = &measured.front();
    for (const MeasuredPoint& m : measured) {
        if (m.ranks <= ranks && (!below || m.ranks > below->ranks)) below = &m;
        if (m.ranks < smallest->ranks) smallest = &m;
    }
    return below ? *below : *smallest;
}

} // namespace

LinkFit fitLink(const std::vector<SweepPoint>& points) {
    // Least squares on relative error: each point's row (x1, x2) / t against 1, so that a 4-byte message
    // weighs as much as a 400 MB one.
    double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
    int n = 0;
    for (const SweepPoint& p : points) {
        if (p.ranks < 2 || p.time_s <= 0 || p.bytes <= 0) continue;
        const double x1 = latencySteps(p.ranks) / p.time_s, x2 = busBytes(p.ranks, p.bytes) / p.time_s;
        s11 += x1 * x1;
        s12 += x1 * x2;
        s22 += x2 * x2;
        r1 += x1;
        r2 += x2;
        ++n;
    }
    LinkFit fit;
    if (n == 0) return fit;
    double alpha = 0, beta = 0; // beta: seconds per bus byte
    const double det = s11 * s22 - s12 * s12;
    if (det > 0) {
        alpha = (r1 * s22 - r2 * s12) / det;
        beta = (s11 * r2 - s12 * r1) / det;
    }
    // A negative term has no meaning: fit the other alone.
    if (det <= 0 || alpha < 0 || beta <= 0) {
        alpha = 0;
        beta = s22 > 0 ? r2 / s22 : 0;
        if (beta <= 0) {
            beta = 0;
            alpha = s11 > 0 ? r1 / s11 : 0;
        }
    }
    fit.alpha_s = alpha;
    fit.busbw_bytes_s = beta > 0 ? 1 / beta : INFINITY;
    fit.points = n;
    double squares = 0;
    for (const SweepPoint& p : points) {
        if (p.ranks < 2 || p.time_s <= 0 || p.bytes <= 0) continue;
        const double r = (modelTime(fit, p.ranks, p.bytes) - p.time_s) / p.time_s;
        squares += r * r;
    }
    fit.relative_rms = std::sqrt(squares / n);
    return fit;
}

CommCostModel fitCommCost(const std::vector<SweepPoint>& sweep, int ranks_per_node,
                          int sweep_ranks_per_node) {
    CommCostModel model;
    model.ranks_per_node = std::max(1, ranks_per_node);
    model.sweep_ranks_per_node = sweep_ranks_per_node > 0 ? sweep_ranks_per_node : model.ranks_per_node;
    std::vector<SweepPoint> intra, inter;
    for (const SweepPoint& p : sweep)
        (p.ranks <= model.sweep_ranks_per_node ? intra : inter).push_back(p);
    model.intra = fitLink(intra);
    if (LinkFit across = fitLink(inter); across.points > 0) model.inter = across;
    return model;
}

CommPrediction allreduceTime(const std::vector<SweepPoint>& sweep, const CommCostModel& model, int ranks,
                             double bytes) {
    CommPrediction out;
    if (ranks <= 1 || bytes <= 0) return out;
    const bool across = ranks > model.ranks_per_node;
    if (across == (ranks > model.sweep_ranks_per_node))
        if (const auto measured = interpolated(timesAt(sweep, ranks), bytes)) {
            out.time_s = *measured;
            return out;
        }
    out.extrapolated = true;
    const LinkFit& fit = across && model.inter ? *model.inter : model.intra;
    out.inter_node_unmeasured = across && !model.inter;
    out.relative_error = 2 * fit.relative_rms;
    if (fit.points == 0 && !fit.stated) return out;
    out.time_s = modelTime(fit, ranks, bytes);
    // Where the sweep measured this size at another rank count on the same side of a node boundary, its time
    // there carried over by the model's ratio keeps what the sweep saw (a protocol switch at some size, a
    // shape alpha-beta misses) and takes only the change with N from the fit.
    if (out.inter_node_unmeasured) return out;
    std::optional<std::pair<int, double>> nearest; // rank count, its time for `bytes`
    std::set<int> swept;
    for (const SweepPoint& p : sweep)
        swept.insert(p.ranks);
    for (const int n : swept) {
        if (n < 2 || (n > model.sweep_ranks_per_node) != across) continue;
        const auto measured = interpolated(timesAt(sweep, n), bytes);
        if (measured && (!nearest || std::abs(n - ranks) < std::abs(nearest->first - ranks)))
            nearest = {n, *measured};
    }
    if (nearest)
        out.time_s = nearest->second * modelTime(fit, ranks, bytes) / modelTime(fit, nearest->first, bytes);
    return out;
}

double hiddenFraction(const ModelInputs& inputs) {
    if (inputs.stated_hidden_fraction) return *inputs.stated_hidden_fraction;
    const MeasuredPoint* largest = nullptr;
    for (const MeasuredPoint& m : inputs.measured)
        if (m.ranks > 1 && (!largest || m.ranks > largest->ranks)) largest = &m;
    if (!largest) return 0;
    const double all = largest->hidden_s.mean + largest->exposed_s.mean;
    return all > 0 ? largest->hidden_s.mean / all : 0;
}

CommCostModel commCostModel(const ModelInputs& inputs) {
    CommCostModel model = fitCommCost(inputs.sweep, inputs.ranks_per_node, inputs.sweep_ranks_per_node);
    if (inputs.stated_intra) model.intra = *inputs.stated_intra;
    if (inputs.stated_inter) model.inter = *inputs.stated_inter;
    return model;
}

double stepCommunication(const ModelInputs& inputs, int ranks) {
    const CommCostModel model = commCostModel(inputs);
    double total = 0;
    for (const double bytes : inputs.bucket_bytes)
        total += allreduceTime(inputs.sweep, model, ranks, bytes).time_s;
    return total;
}

namespace {

// Throws where the inputs cannot give a projection: no run, no sweep or stated link, no buckets, or a fixed
// global batch without its sizes.
void requireProjectable(const ModelInputs& inputs) {
    if (inputs.measured.empty()) throw std::invalid_argument("no measured training run to project from");
    if (inputs.sweep.empty() && !inputs.stated_intra)
        throw std::invalid_argument(
            "no all-reduce sweep: the gradient all-reduce time cannot be predicted (add an "
            "allreduce-sweep run of the training's backend to the plan)");
    if (inputs.bucket_bytes.empty())
        throw std::invalid_argument("no gradient buckets in the runs' headers (bucket_elements)");
    if (inputs.mode == ScalingMode::FixedGlobalBatch && inputs.global_batch <= 0)
        throw std::invalid_argument("a fixed global batch needs its size");
    if (inputs.mode == ScalingMode::FixedGlobalBatch && inputs.batch_per_rank <= 0)
        throw std::invalid_argument(
            "a fixed global batch needs the batch per rank the compute was measured at");
}

// All gradient buckets' all-reduce at one rank count, and how it was predicted.
struct GradientComm {
    double time_s = 0;
    double error_s = 0;            // the band's half-width
    bool modelled = false;         // some bucket from the cost model, not the sweep
    bool unmeasured_inter = false; // some bucket across nodes with no sweep across nodes
};

GradientComm gradientComm(const ModelInputs& inputs, const CommCostModel& model, int ranks) {
    GradientComm comm;
    for (const double bytes : inputs.bucket_bytes) {
        const CommPrediction c = allreduceTime(inputs.sweep, model, ranks, bytes);
        comm.time_s += c.time_s;
        comm.error_s += c.time_s * c.relative_error;
        comm.modelled = comm.modelled || c.extrapolated;
        comm.unmeasured_inter = comm.unmeasured_inter || c.inter_node_unmeasured;
    }
    return comm;
}

// Throughput from the step time, and what follows from it: speedup over N0, time and tokens to train, cost.
void setThroughput(Projection& p, const ModelInputs& inputs, const MeasuredPoint& n0) {
    const int n = p.ranks;
    const double batch = inputs.mode == ScalingMode::Weak ? static_cast<double>(n) * inputs.batch_per_rank
                                                          : inputs.global_batch;
    p.samples_per_s = batch / p.step_s;
    p.samples_low = batch / p.step_high_s;
    p.samples_high = p.step_low_s > 0 ? batch / p.step_low_s : INFINITY;
    if (n0.samples_per_s.mean > 0) {
        p.speedup = p.samples_per_s / n0.samples_per_s.mean;
        p.efficiency = p.speedup * n0.ranks / n;
    }
    if (inputs.samples_to_train > 0) p.time_to_train_s = inputs.samples_to_train / p.samples_per_s;
    if (inputs.seq_len > 0) {
        p.tokens_per_s = p.samples_per_s * inputs.seq_len;
        p.days_to_1t_tokens = daysToTrain(p.tokens_per_s);
    }
    p.cost_per_hour = n * inputs.price_per_gpu_hour;
    p.cost_to_train = p.cost_per_hour * p.time_to_train_s / 3600;
}

// The note for an all-reduce from a link model at N ranks: the stated link's figures, or the fit's.
std::string linkNote(const CommCostModel& model, int ranks) {
    const LinkFit& fit = ranks > model.ranks_per_node && model.inter ? *model.inter : model.intra;
    return fit.stated ? fmt::format("all-reduce from the stated {} link (alpha {:.3g} us, busbw {:.3g} GB/s)",
                                    &fit == &model.intra ? "intra-node" : "inter-node", fit.alpha_s * 1e6,
                                    fit.busbw_bytes_s / 1e9)
                      : fmt::format("all-reduce from the cost model fitted to the sweep (alpha {:.3g} us, "
                                    "busbw {:.3g} GB/s, rms error {:.0f} %)",
                                    fit.alpha_s * 1e6, fit.busbw_bytes_s / 1e9, fit.relative_rms * 100);
}

// Why the row extrapolates, and what its regime means; `ref` is the measured point its compute came from.
void addNotes(Projection& p, const ModelInputs& inputs, const CommCostModel& model, const MeasuredPoint& ref,
              const GradientComm& comm, int largest_measured) {
    const int n = p.ranks;
    if (n > largest_measured) {
        p.extrapolated = true;
        p.notes.push_back(
            fmt::format("beyond the largest measured rank count: compute per rank as at {}", ref.ranks));
    }
    if (comm.modelled) {
        p.extrapolated = true;
        p.notes.push_back(linkNote(model, n));
    }
    if (comm.unmeasured_inter)
        p.notes.push_back("across nodes, but the sweep never crossed a node: the intra-node fit stands in");
    const int on_node = std::min(n, std::max(1, inputs.ranks_per_node));
    if (inputs.cpus_per_node > 0 && on_node > inputs.cpus_per_node) {
        p.extrapolated = true;
        p.notes.push_back(fmt::format("more ranks on a node than its {} CPUs: measured there, CPU contention "
                                      "weighs more than communication",
                                      inputs.cpus_per_node));
    }
}

// One row: compute from the measured point that stands for N ranks, plus the exposed part of the predicted
// all-reduce; `n0` is the smallest measured point, the speedup's base.
Projection projectAt(const ModelInputs& inputs, const CommCostModel& model, double hidden,
                     const MeasuredPoint& n0, int largest_measured, int n) {
    Projection p;
    p.ranks = n;
    const MeasuredPoint& ref = referencePoint(inputs.measured, n);
    // Weak scaling keeps each rank's work; a fixed global batch G gives each rank G / N samples, against
    // the batch per rank the compute was measured at.
    const double share = inputs.mode == ScalingMode::Weak
                             ? 1.0
                             : static_cast<double>(inputs.global_batch) / n / inputs.batch_per_rank;
    // A check against the measurement only where the runs did the same work per rank.
    p.measured = ref.ranks == n && std::abs(share - 1) < 1e-9;
    if (p.measured) p.measured_samples_per_s = ref.samples_per_s.mean;
    p.compute_s = ref.compute_s.mean * share;
    const double compute_2sigma = ref.compute_s.two_sigma() * share;
    const GradientComm comm = gradientComm(inputs, model, n);
    p.comm_s = comm.time_s;
    p.exposed_s = p.comm_s * (1 - hidden);
    const double exposed_error = comm.error_s * (1 - hidden);
    p.step_s = p.compute_s + p.exposed_s;
    p.step_low_s = std::max(0.0, p.compute_s - compute_2sigma) + std::max(0.0, p.exposed_s - exposed_error);
    p.step_high_s = p.compute_s + compute_2sigma + p.exposed_s + exposed_error;
    setThroughput(p, inputs, n0);
    addNotes(p, inputs, model, ref, comm, largest_measured);
    return p;
}

} // namespace

std::vector<Projection> project(const ModelInputs& inputs, const std::vector<int>& ranks) {
    requireProjectable(inputs);
    const CommCostModel model = commCostModel(inputs);
    const double hidden = hiddenFraction(inputs);
    int largest_measured = 0, smallest_measured = inputs.measured.front().ranks;
    for (const MeasuredPoint& m : inputs.measured) {
        largest_measured = std::max(largest_measured, m.ranks);
        smallest_measured = std::min(smallest_measured, m.ranks);
    }
    const MeasuredPoint& n0 = referencePoint(inputs.measured, smallest_measured);

    std::vector<Projection> out;
    for (const int n : ranks) {
        if (n < 1) throw std::invalid_argument(fmt::format("a rank count must be at least 1, not {}", n));
        out.push_back(projectAt(inputs, model, hidden, n0, largest_measured, n));
    }
    return out;
}

std::optional<Projection> cheapestForDeadline(const std::vector<Projection>& rows, double deadline_s) {
    std::optional<Projection> best;
    for (const Projection& p : rows) {
        if (p.time_to_train_s <= 0 || p.cost_to_train <= 0 || p.time_to_train_s > deadline_s) continue;
        if (!best || p.cost_to_train < best->cost_to_train ||
            (p.cost_to_train == best->cost_to_train && p.time_to_train_s < best->time_to_train_s))
            best = p;
    }
    return best;
}

std::string formatProjection(const ModelInputs& inputs, const std::vector<Projection>& rows) {
    std::string out = fmt::format(
        "{} scaling, hidden fraction {:.0f} % of communication (measured at the largest rank count)\n",
        inputs.mode == ScalingMode::Weak
            ? fmt::format("weak ({} samples per rank)", inputs.batch_per_rank)
            : fmt::format("fixed global batch ({} samples)", inputs.global_batch),
        hiddenFraction(inputs) * 100);
    out +=
        fmt::format("{:>6} {:>9} {:>11} {:>11} {:>11} {:>24} {:>13} {:>8} {:>7}", "ranks", "", "compute ms",
                    "comm ms", "exposed ms", "step ms (band)", "samples/s", "speedup", "eff.");
    const bool tokens = inputs.seq_len > 0, train = inputs.samples_to_train > 0,
               cost = inputs.price_per_gpu_hour > 0;
    if (tokens) out += fmt::format(" {:>12} {:>8}", "tokens/s", "days/1T");
    if (train) out += fmt::format(" {:>12}", "to train");
    if (cost)
        out += fmt::format(" {:>10} {:>14}", "cost/h " + inputs.currency, "cost/train " + inputs.currency);
    out += "\n";
    for (const Projection& p : rows) {
        out += fmt::format(
            "{:>6} {:>9} {:>11.3f} {:>11.3f} {:>11.3f} {:>24} {:>13.1f} {:>7.2f}x {:>6.0f}%", p.ranks,
            p.extrapolated ? "extrap." : "predicted", p.compute_s * 1e3, p.comm_s * 1e3, p.exposed_s * 1e3,
            fmt::format("{:.3f} ({:.3f}-{:.3f})", p.step_s * 1e3, p.step_low_s * 1e3, p.step_high_s * 1e3),
            p.samples_per_s, p.speedup, p.efficiency * 100);
        if (tokens) out += fmt::format(" {:>12.0f} {:>8.1f}", p.tokens_per_s, p.days_to_1t_tokens);
        if (train) out += fmt::format(" {:>10.1f} s", p.time_to_train_s);
        if (cost) out += fmt::format(" {:>10.2f} {:>14.2f}", p.cost_per_hour, p.cost_to_train);
        if (p.measured && p.measured_samples_per_s > 0)
            out += fmt::format("  measured {:.1f} samples/s: prediction {:+.1f} %", p.measured_samples_per_s,
                               (p.samples_per_s / p.measured_samples_per_s - 1) * 100);
        out += "\n";
    }
    std::vector<std::string> notes; // each once, numbered in order of first use
    for (const Projection& p : rows)
        for (const std::string& note : p.notes)
            if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    for (const Projection& p : rows)
        if (!p.notes.empty()) {
            std::string marks;
            for (const std::string& note : p.notes)
                marks +=
                    fmt::format(" [{}]", std::find(notes.begin(), notes.end(), note) - notes.begin() + 1);
            out += fmt::format("{:>6}:{}\n", p.ranks, marks);
        }
    for (std::size_t i = 0; i < notes.size(); ++i)
        out += fmt::format("[{}] {}\n", i + 1, notes[i]);
    return out;
}

} // namespace scalebench
