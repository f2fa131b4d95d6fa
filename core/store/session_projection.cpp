// The performance model's inputs from a stored session.
#include "session_projection.h"

#include "cluster_settings.h"
#include "session_results.h"
#include "session_store.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace scalebench {
namespace {

using nlohmann::json;

constexpr int kOneNode = 1 << 30; // ranks per node of a session on this machine: every rank on it

json parsedHeader(const std::string& text) {
    json header = json::parse(text, nullptr, /*allow_exceptions=*/false);
    return header.is_object() ? header : json::object();
}

std::string backendOf(const RunResult& result, const json& header) {
    if (const auto it = result.series.settings.find("backend"); it != result.series.settings.end())
        return it->second;
    return header.value("backend", "mpi");
}

} // namespace

std::vector<BucketCheck> checkBuckets(const SeriesModelInputs& series) {
    std::vector<BucketCheck> out;
    const ModelInputs& in = series.inputs;
    if (in.sweep.empty()) return out;
    const CommCostModel model = fitCommCost(in.sweep, in.ranks_per_node, in.sweep_ranks_per_node);
    for (const auto& [ranks, durations] : series.bucket_durations) {
        if (ranks < 2) continue;
        for (std::size_t b = 0; b < durations.size(); ++b)
            if (durations[b].steps > 0)
                out.push_back(
                    {ranks, static_cast<int>(b), durations[b].bytes, durations[b].median_s,
                     allreduceTime(in.sweep, model, ranks, static_cast<double>(durations[b].bytes))});
    }
    return out;
}

std::string formatBucketChecks(const std::vector<BucketCheck>& checks) {
    if (checks.empty()) return "";
    std::string out =
        "per bucket: the all-reduce the engine timed (median) against the sweep's time for its size\n";
    out += fmt::format("{:>6} {:>7} {:>12} {:>13} {:>13} {:>10}\n", "ranks", "bucket", "bytes", "measured ms",
                       "predicted ms", "ratio");
    for (const BucketCheck& c : checks)
        out += fmt::format("{:>6} {:>7} {:>12} {:>13.3f} {:>13.3f} {:>9.2f}x{}\n", c.ranks, c.bucket, c.bytes,
                           c.measured_s * 1e3, c.predicted.time_s * 1e3,
                           c.predicted.time_s > 0 ? c.measured_s / c.predicted.time_s : 0.0,
                           c.predicted.extrapolated ? "  (modelled: size beyond the sweep)" : "");
    out += "(a bucket's time runs from its start to its end on rank 0: it includes waiting for the slower "
           "rank, and with overlap the polling while backward runs)\n";
    if (const std::string reading = describeBucketReading(readBucketChecks(checks)); !reading.empty())
        out += reading + "\n";
    return out;
}

BucketReading readBucketChecks(const std::vector<BucketCheck>& checks) {
    std::vector<double> ratios;
    for (const BucketCheck& c : checks)
        if (c.predicted.time_s > 0) ratios.push_back(c.measured_s / c.predicted.time_s);
    BucketReading out;
    if (ratios.empty()) return out;
    out.buckets = static_cast<int>(ratios.size());
    out.low_ratio = *std::min_element(ratios.begin(), ratios.end());
    out.high_ratio = *std::max_element(ratios.begin(), ratios.end());
    out.median_ratio = median(ratios);
    out.pace = out.median_ratio > kFabricSpeedHigh  ? BucketReading::Pace::Slower
               : out.median_ratio < kFabricSpeedLow ? BucketReading::Pace::Faster
                                                    : BucketReading::Pace::AtFabricSpeed;
    return out;
}

namespace {
// A ratio with the digits that matter: 24x, 2.5x, 0.63x.
std::string ratioText(double ratio) {
    return ratio >= 10  ? fmt::format("{:.0f}x", ratio)
           : ratio >= 1 ? fmt::format("{:.1f}x", ratio)
                        : fmt::format("{:.2f}x", ratio);
}
} // namespace

std::string describeBucketReading(const BucketReading& r) {
    if (r.buckets == 0) return "";
    const std::string range = r.buckets == 1 || ratioText(r.low_ratio) == ratioText(r.high_ratio)
                                  ? ratioText(r.median_ratio)
                                  : ratioText(r.low_ratio) + "-" + ratioText(r.high_ratio);
    const std::string median = r.buckets == 1 ? "" : fmt::format(" (median {})", ratioText(r.median_ratio));
    const std::string head = fmt::format("buckets' all-reduce takes {} the sweep's time{}: ", range, median);
    switch (r.pace) {
    case BucketReading::Pace::AtFabricSpeed:
        return head + "the training's communication runs at the fabric's speed";
    case BucketReading::Pace::Slower:
        return head +
               "slower than the sweep, the training's communication does not run at the fabric's speed";
    case BucketReading::Pace::Faster:
        return head + "faster than the sweep, which overstates the fabric's time at these sizes";
    }
    return head;
}

std::string whyNoBucketChecks(const SeriesModelInputs& series) {
    if (series.bucket_durations.empty()) return "the runs wrote no bucket timings";
    if (std::none_of(series.bucket_durations.begin(), series.bucket_durations.end(),
                     [](const auto& d) { return d.first >= 2 && !d.second.empty(); }))
        return "bucket timings at one rank only: nothing was all-reduced";
    if (series.inputs.sweep.empty())
        return "no float32 all-reduce sweep over " +
               (series.backend.empty() ? "the backend" : series.backend) +
               " in the session: nothing to predict the buckets' times from";
    if (checkBuckets(series).empty()) return "no bucket with timed steps";
    return "";
}

namespace {

// A session's runs as the store lists them, by run name: each run's parsed header and its id.
struct StoredRuns {
    std::map<std::string, json> headers;
    std::map<std::string, std::int64_t> ids;
};

StoredRuns storedRuns(const SessionStore& store, std::int64_t session_id) {
    StoredRuns out;
    for (const RunRow& run : store.runs(session_id)) {
        out.headers[run.name] = parsedHeader(run.header_json);
        out.ids[run.name] = run.id;
    }
    return out;
}

// A run's parsed header; for a run the store did not list, json null (whose value() throws).
const json& headerOf(const StoredRuns& runs, const std::string& name) {
    static const json none;
    const auto it = runs.headers.find(name);
    return it == runs.headers.end() ? none : it->second;
}

// The sweep: per backend, rank count and size (bytes), each run's time that measured it.
using AllreduceSweeps = std::map<std::string, std::map<std::pair<int, std::int64_t>, std::vector<double>>>;

AllreduceSweeps allreduceSweeps(const std::vector<RunResult>& results) {
    AllreduceSweeps sweeps;
    for (const RunResult& r : results)
        for (const CollectiveRecord& c : r.collectives)
            if (r.status == RunStatus::Ok && c.collective == "allreduce" && c.dtype == "float32" &&
                c.time_s > 0)
                sweeps[c.backend][{c.ranks, c.bytes}].push_back(c.time_s);
    return sweeps;
}

// A training series' successful runs with steady-state steps, by rank count.
struct TrainingSeries {
    SeriesKey key;
    std::map<int, std::vector<const RunResult*>> by_ranks;
};

// The series in the order their first run comes in the results.
std::vector<TrainingSeries> trainingSeries(const std::vector<RunResult>& results) {
    std::vector<TrainingSeries> series;
    for (const RunResult& r : results) {
        if (r.status != RunStatus::Ok || !r.collectives.empty() || r.figures.steady_steps == 0) continue;
        const SeriesKey key = seriesOf(r);
        auto it =
            std::find_if(series.begin(), series.end(), [&](const TrainingSeries& s) { return s.key == key; });
        if (it == series.end()) it = series.insert(series.end(), TrainingSeries{key, {}});
        it->by_ranks[r.ranks].push_back(&r);
    }
    return series;
}

// The cluster the session ran on as the model sees it: where a node boundary lies, what a GPU-hour costs.
struct SessionCluster {
    int ranks_per_node = 0;
    double price_per_gpu_hour = 0;
    std::string currency{};
};

SessionCluster sessionCluster(const SessionRow& session) {
    // The cluster's settings the session ran with (none on this machine: one node, no price).
    const ClusterSettings cluster =
        session.cluster_json.empty() ? ClusterSettings{} : clusterFromJson(session.cluster_json);
    const int cluster_ranks_per_node = session.cluster_json.empty() ? 0 : cluster.tasks_per_node;
    // This machine is one node, whatever the rank count.
    return {cluster_ranks_per_node > 0 ? cluster_ranks_per_node : kOneNode,
            session.cluster_json.empty() ? 0 : cluster.price_per_gpu_hour, cluster.currency};
}

// Where a series' runs ran: the busiest host's ranks and CPUs over its runs, and whether any trained on CPUs.
struct SeriesHosts {
    RunPlacement widest;
    bool cpu_training = false;
};

// The runs at one rank count as a measured point (compute, exposed and hidden communication, throughput: mean
// and two sigma over the repeats). What their headers say fills the series' batch per rank, backend, buckets
// and sequence length where it has none yet; where they ran joins `hosts`.
MeasuredPoint measuredPoint(int ranks, const std::vector<const RunResult*>& runs, const StoredRuns& stored,
                            SeriesModelInputs& s, SeriesHosts& hosts) {
    ModelInputs& in = s.inputs;
    std::vector<double> compute, exposed, hidden, samples;
    for (const RunResult* r : runs) {
        const json& header = headerOf(stored, r->name);
        const json hyper = header.value("hyperparameters", json::object());
        // Samples per rank per optimizer step (micro-batch x accumulation).
        const int global_batch = hyper.value("global_batch", 0);
        if (in.batch_per_rank == 0)
            in.batch_per_rank =
                global_batch > 0 ? global_batch / std::max(1, ranks) : hyper.value("batch_per_rank", 0);
        const StepBreakdown& b = r->figures.breakdown;
        // The step the throughput figure stands for (its median over the steady steps, as the Scaling
        // tab shows it), less the mean exposed communication: the model's prediction at a measured
        // rank count is then comparable with the throughput measured there, even when a few slow
        // steps pull the mean step time up.
        const double step_s = r->figures.samples_per_s > 0 && global_batch > 0
                                  ? global_batch / r->figures.samples_per_s
                                  : b.step_s;
        compute.push_back(std::max(0.0, step_s - b.allreduce_s));
        exposed.push_back(b.allreduce_s);
        hidden.push_back(b.comm_hidden_s);
        samples.push_back(r->figures.samples_per_s);
        if (s.backend.empty()) s.backend = backendOf(*r, header);
        if (in.bucket_bytes.empty())
            for (const json& elements : header.value("bucket_elements", json::array()))
                if (elements.is_number()) in.bucket_bytes.push_back(elements.get<double>() * 4);
        if (in.seq_len == 0) in.seq_len = header.value("seq_len", hyper.value("seq_len", 0));
        const RunPlacement& p = r->placement;
        hosts.widest.ranks_on_a_host = std::max(hosts.widest.ranks_on_a_host, p.ranks_on_a_host);
        hosts.widest.cpus_on_a_host = std::max(hosts.widest.cpus_on_a_host, p.cpus_on_a_host);
        const json device = header.value("device", json::object());
        hosts.cpu_training =
            hosts.cpu_training || (device.is_object() && device.value("type", "cpu") == "cpu");
    }
    return {ranks, describe(compute), describe(exposed), describe(hidden), describe(samples)};
}

// Each bucket's median over the repeats' medians; empty where no run timed its buckets.
std::vector<BucketDuration> mergedBucketDurations(const SessionStore& store, const StoredRuns& stored,
                                                  const std::vector<const RunResult*>& runs) {
    std::vector<std::vector<BucketDuration>> per_run;
    for (const RunResult* r : runs)
        if (const auto id = stored.ids.find(r->name); id != stored.ids.end())
            if (auto durations = medianBucketDurations(store.bucketTimes(id->second)); !durations.empty())
                per_run.push_back(std::move(durations));
    if (per_run.empty()) return {};
    std::vector<BucketDuration> merged = per_run.front();
    for (std::size_t b = 0; b < merged.size(); ++b) {
        std::vector<double> medians;
        for (const auto& durations : per_run)
            if (b < durations.size() && durations[b].steps > 0) medians.push_back(durations[b].median_s);
        merged[b].median_s = medians.empty() ? 0 : median(medians);
    }
    return merged;
}

// One series' inputs: per rank count its measured point and its buckets' timings; the session's sweep over
// its backend (mean over the runs per rank count and size); the cluster's node size and price.
SeriesModelInputs seriesInputs(const SessionStore& store, const StoredRuns& stored,
                               const TrainingSeries& series, const std::string& label,
                               const AllreduceSweeps& sweeps, const SessionCluster& cluster) {
    SeriesModelInputs s;
    s.label = label;
    ModelInputs& in = s.inputs;
    SeriesHosts hosts;
    for (const auto& [ranks, runs] : series.by_ranks) {
        const MeasuredPoint point = measuredPoint(ranks, runs, stored, s, hosts);
        in.measured.push_back(point);
        if (std::vector<BucketDuration> merged = mergedBucketDurations(store, stored, runs); !merged.empty())
            s.bucket_durations[ranks] = std::move(merged);
    }
    if (const auto sweep = sweeps.find(s.backend); sweep != sweeps.end())
        for (const auto& [point, times] : sweep->second)
            in.sweep.push_back({point.first, static_cast<double>(point.second), describe(times).mean});
    in.ranks_per_node = cluster.ranks_per_node;
    in.cpus_per_node = hosts.cpu_training ? hosts.widest.cpus_on_a_host : 0;
    in.price_per_gpu_hour = cluster.price_per_gpu_hour;
    in.currency = cluster.currency;
    return s;
}

} // namespace

std::vector<SeriesModelInputs> sessionModelInputs(const SessionStore& store, const SessionRow& session) {
    const std::vector<RunResult> results = loadSessionResults(store, session.id);
    const StoredRuns stored = storedRuns(store, session.id);
    const AllreduceSweeps sweeps = allreduceSweeps(results);
    const std::vector<TrainingSeries> series = trainingSeries(results);
    std::vector<SeriesKey> keys;
    for (const TrainingSeries& s : series)
        keys.push_back(s.key);
    const std::vector<std::string> labels = seriesLabels(keys);
    const SessionCluster cluster = sessionCluster(session);

    std::vector<SeriesModelInputs> out;
    for (std::size_t i = 0; i < series.size(); ++i)
        out.push_back(seriesInputs(store, stored, series[i], labels[i], sweeps, cluster));
    return out;
}

} // namespace scalebench
