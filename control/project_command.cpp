// project SESSION: the performance model's table for each training series of a stored session.
#include "project_command.h"

#include "baseline_session.h"
#include "model_inputs_file.h"
#include "session_projection.h"
#include "session_store.h"

#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace scalebench {

namespace {

// The command line's choices over what the inputs say: a fixed global batch, another layout, samples to
// train, a price.
void applyOptions(const ConsoleOptions& options, ModelInputs& in) {
    if (options.global_batch > 0) {
        in.mode = ScalingMode::FixedGlobalBatch;
        in.global_batch = options.global_batch;
    }
    if (options.ranks_per_node > 0) { // another layout than the one measured
        in.sweep_ranks_per_node = in.ranks_per_node;
        in.ranks_per_node = options.ranks_per_node;
    }
    if (options.samples_to_train > 0) in.samples_to_train = options.samples_to_train;
    // The session's cluster's (or the file's) price unless the command line gives one.
    if (options.price_per_gpu_hour) in.price_per_gpu_hour = *options.price_per_gpu_hour;
    if (!options.currency.empty()) in.currency = options.currency;
}

std::string linkLine(const char* where, const LinkFit& link) {
    return fmt::format("  {} link: alpha {:.3g} us, busbw {:.4g} GB/s\n", where, link.alpha_s * 1e6,
                       link.busbw_bytes_s / 1e9);
}

int projectStatedInputs(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const StatedModel stated = parseStatedModelFile(options.project_inputs);
        ModelInputs in = stated.inputs;
        applyOptions(options, in);
        double gradient_bytes = 0;
        for (const double b : in.bucket_bytes)
            gradient_bytes += b;
        out << fmt::format("{} (stated inputs, {})\n", stated.name, options.project_inputs.string());
        if (!stated.source.empty()) out << "  source: " << stated.source << "\n";
        out << fmt::format("  {} ranks per node; {} all-reduce{} per step, {:.4g} GB in all\n",
                           in.ranks_per_node, in.bucket_bytes.size(), in.bucket_bytes.size() == 1 ? "" : "s",
                           gradient_bytes / 1e9);
        out << linkLine("intra-node", *in.stated_intra);
        if (in.stated_inter) out << linkLine("inter-node", *in.stated_inter);
        for (const MeasuredPoint& m : in.measured)
            out << fmt::format(
                "  measured at {} ranks: step {:.4g} s = compute {:.4g} s + exposed {:.4g} s\n", m.ranks,
                m.compute_s.mean + m.exposed_s.mean, m.compute_s.mean, m.exposed_s.mean);
        out << formatProjection(in, project(in, options.project_ranks));
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace

int projectSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    if (!options.project_inputs.empty()) return projectStatedInputs(options, out, err);
    try {
        if (!std::filesystem::exists(options.db))
            throw std::runtime_error("no session store " + options.db.string());
        const SessionStore store(options.db);
        const std::optional<SessionRow> session = namedSession(store, options.report_session);
        const std::vector<SeriesModelInputs> series = sessionModelInputs(store, *session);
        if (series.empty())
            throw std::runtime_error("session " + std::to_string(session->id) + " (" + session->name +
                                     ") has no successful training run to project from");
        out << fmt::format("session {} ({}), {}\n", session->id, session->name,
                           session->cluster_json.empty() ? "this machine: one node"
                                                         : "cluster " + session->cluster);
        int failed = 0;
        for (const SeriesModelInputs& s : series) {
            ModelInputs in = s.inputs;
            applyOptions(options, in);
            std::string measured;
            for (const MeasuredPoint& m : in.measured)
                measured += fmt::format("{}{} ({} repeat{})", measured.empty() ? "" : ", ", m.ranks,
                                        m.compute_s.count, m.compute_s.count == 1 ? "" : "s");
            std::set<int> sweep_ranks;
            for (const SweepPoint& p : in.sweep)
                sweep_ranks.insert(p.ranks);
            std::string swept;
            for (const int n : sweep_ranks)
                swept += (swept.empty() ? "" : ", ") + std::to_string(n);
            double gradient_bytes = 0;
            for (const double b : in.bucket_bytes)
                gradient_bytes += b;
            out << fmt::format("\n{} (backend {})\n  measured at {} ranks; sweep: {} float32 all-reduce "
                               "sizes at {} ranks; {} buckets, {:.3g} MB of gradients\n",
                               s.label, s.backend, measured, in.sweep.size(), swept.empty() ? "no" : swept,
                               in.bucket_bytes.size(), gradient_bytes / 1e6);
            try {
                out << formatProjection(in, project(in, options.project_ranks));
                out << formatBucketChecks(checkBuckets(s));
            } catch (const std::invalid_argument& e) {
                ++failed;
                err << "scalebench: " << s.label << ": " << e.what() << "\n";
            }
        }
        return failed == 0 ? 0 : 2;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace scalebench
