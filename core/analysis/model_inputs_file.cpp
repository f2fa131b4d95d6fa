// Reads the performance model's stated inputs (model_inputs_file.h).
#include "model_inputs_file.h"

#include "toml_table_reader.h"

#include <cmath>
#include <fmt/format.h>

namespace scalebench {
namespace {

LinkFit readLink(const toml::table& root, const std::string& file, const std::string& name) {
    const toml::table* table = root.get_as<toml::table>(name);
    TableReader r(*table, file, "[" + name + "]", {"alpha_us", "busbw_gb_s"});
    LinkFit link;
    link.alpha_s = r.number("alpha_us", 0) * 1e-6;
    if (link.alpha_s < 0) r.fail(r.line(), "alpha_us", "'alpha_us' must be 0 or more");
    link.busbw_bytes_s = r.real("busbw_gb_s", 0) * 1e9;
    if (link.busbw_bytes_s <= 0) r.fail(r.line(), "busbw_gb_s", "[" + name + "] needs 'busbw_gb_s'");
    link.stated = true;
    return link;
}

struct StatedPoint {
    int ranks = 0;
    double step_s = 0;
    double exposed_s = -1; // not stated
    double samples_per_s = 0;
    int line = 0;
};

StatedPoint readPoint(const toml::table& table, const std::string& file, int index) {
    TableReader r(table, file, fmt::format("[[measured]] #{}", index),
                  {"ranks", "step_s", "exposed_s", "samples_per_s"});
    StatedPoint p;
    p.ranks = r.integer("ranks", 0, 1);
    if (p.ranks == 0) r.fail(r.line(), "ranks", "a measured point needs 'ranks'");
    p.step_s = r.real("step_s", 0);
    if (p.step_s == 0) r.fail(r.line(), "step_s", "a measured point needs 'step_s', its seconds per step");
    if (table.contains("exposed_s")) {
        p.exposed_s = r.number("exposed_s", 0);
        if (p.exposed_s < 0 || p.exposed_s >= p.step_s)
            r.fail(*table.get("exposed_s"), "exposed_s", "'exposed_s' must be 0 or more and below 'step_s'");
    }
    p.samples_per_s = r.real("samples_per_s", 0);
    p.line = r.line();
    return p;
}

Statistics one(double value) {
    return Statistics{1, value, 0};
}

} // namespace

StatedModel parseStatedModelText(const std::string& text, const std::string& file_name) {
    const toml::table root = parseTomlDocument(text, file_name);
    TableReader r(root, file_name, "",
                  {"name", "source", "scaling", "batch_per_rank", "global_batch", "seq_len", "ranks_per_node",
                   "gradient_bytes", "buckets", "hidden_fraction", "samples_to_train", "price_per_gpu_hour",
                   "measured", "intra_node", "inter_node"});
    StatedModel out;
    out.name = r.text("name", "", true);
    out.source = r.text("source", "");
    ModelInputs& in = out.inputs;
    const std::string scaling = r.text("scaling", "weak");
    if (scaling == "fixed-global-batch")
        in.mode = ScalingMode::FixedGlobalBatch;
    else if (scaling != "weak")
        r.fail(*root.get("scaling"), "scaling",
               "'scaling' is \"weak\" or \"fixed-global-batch\", not '" + scaling + "'");
    in.batch_per_rank = r.integer("batch_per_rank", 0, 1);
    if (in.batch_per_rank == 0)
        r.fail(1, "batch_per_rank",
               "the file needs 'batch_per_rank', the samples per rank at the measured points");
    in.global_batch = r.integer("global_batch", 0, 1);
    if (in.mode == ScalingMode::FixedGlobalBatch && in.global_batch == 0)
        r.fail(1, "global_batch", "scaling = \"fixed-global-batch\" needs 'global_batch'");
    in.seq_len = r.integer("seq_len", 0, 1);
    in.ranks_per_node = r.integer("ranks_per_node", 1, 1);
    const double gradient_bytes = r.real("gradient_bytes", 0);
    if (gradient_bytes == 0)
        r.fail(1, "gradient_bytes", "the file needs 'gradient_bytes', the bytes all-reduced per step");
    const int buckets = r.integer("buckets", 1, 1);
    in.bucket_bytes.assign(buckets, gradient_bytes / buckets);
    const double hidden = r.number("hidden_fraction", 0);
    if (hidden < 0 || hidden > 1)
        r.fail(*root.get("hidden_fraction"), "hidden_fraction", "'hidden_fraction' must be from 0 to 1");
    in.stated_hidden_fraction = hidden;
    in.samples_to_train = r.number("samples_to_train", 0);
    in.price_per_gpu_hour = r.number("price_per_gpu_hour", 0);
    if (in.samples_to_train < 0)
        r.fail(*root.get("samples_to_train"), "samples_to_train", "'samples_to_train' must be 0 or more");
    if (in.price_per_gpu_hour < 0)
        r.fail(*root.get("price_per_gpu_hour"), "price_per_gpu_hour",
               "'price_per_gpu_hour' must be 0 or more");
    if (!root.get_as<toml::table>("intra_node"))
        r.fail(1, "intra_node",
               "the file needs an [intra_node] table: alpha_us and busbw_gb_s of the link within a node");
    in.stated_intra = readLink(root, file_name, "intra_node");
    if (root.get_as<toml::table>("inter_node")) in.stated_inter = readLink(root, file_name, "inter_node");

    const std::vector<StatedPoint> points = readArrayOfTables(root, file_name, "measured", r, readPoint);
    for (const StatedPoint& p : points) {
        const double comm = stepCommunication(in, p.ranks);
        const double exposed = p.exposed_s >= 0 ? p.exposed_s : (1 - hidden) * comm;
        if (exposed >= p.step_s)
            throw PlanError(
                file_name, p.line, "step_s",
                fmt::format("a step of {:.4g} s at {} ranks is shorter than the stated links' exposed "
                            "all-reduce, {:.4g} s",
                            p.step_s, p.ranks, exposed));
        MeasuredPoint m;
        m.ranks = p.ranks;
        m.compute_s = one(p.step_s - exposed);
        m.exposed_s = one(exposed);
        m.hidden_s = one(std::max(0.0, comm - exposed));
        const double batch = static_cast<double>(p.ranks) * in.batch_per_rank; // the measured point's
        m.samples_per_s = one(p.samples_per_s > 0 ? p.samples_per_s : batch / p.step_s);
        in.measured.push_back(m);
    }
    return out;
}

StatedModel parseStatedModelFile(const std::filesystem::path& path) {
    return parseStatedModelText(readTomlFile(path, "model inputs file"), path.string());
}

} // namespace scalebench
