// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#include "run_plan.h"

#include "workload_catalog.h"

#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace scalebench {
namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string closest(const std::string& key, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = 3; // suggest only near misses
    for (const auto& k : known) {
        std::size_t d = editDistance(key, k);
        if (d < best_distance) best = k, best_distance = d;
    }
    return best;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

// Reads the keys of one table, refusing keys it does not know.
class TableReader {
  public:
    TableReader(const toml::table& table, std::string file, std::string where, std::vector<std::string> known)
        : table_(table), file_(std::move(file)), where_(std::move(where)), known_(std::move(known)) {
        for (auto&& [key, node] : table_) {
            const std::string name(key.str());
            if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
            std::string hint = closest(name, known_);
            fail(node, name,
                 "unknown key '" + name + "'" +
                     (hint.empty() ? " (known keys: " + joined(known_) + ")" : " (did you mean '" + hint + "'?)"));
        }
    }

    [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& problem) const {
        fail(static_cast<int>(node.source().begin.line), key, problem);
    }
    [[noreturn]] void fail(int line, const std::string& key, const std::string& problem) const {
        throw PlanError(file_, line, key, where_.empty() ? problem : "in " + where_ + ": " + problem);
    }
    int line() const { return static_cast<int>(table_.source().begin.line); }

    std::string text(const std::string& key, std::string fallback, bool required = false) const {
        const toml::node* node = table_.get(key);
        if (!node) {
            if (required) fail(line(), key, "missing key '" + key + "'");
            return fallback;
        }
        if (auto v = node->value<std::string>()) return *v;
        fail(*node, key, "'" + key + "' must be a string");
    }

    int integer(const std::string& key, int fallback, int minimum) const {
        const toml::node* node = table_.get(key);
        if (!node) return fallback;
        auto v = node->as_integer();
        if (!v) fail(*node, key, "'" + key + "' must be an integer");
        if (v->get() < minimum) fail(*node, key, "'" + key + "' must be at least " + std::to_string(minimum));
        return static_cast<int>(v->get());
    }

    double real(const std::string& key, double fallback) const {
        const toml::node* node = table_.get(key);
        if (!node) return fallback;
        auto v = node->value<double>(); // integers convert too
        if (!v || *v <= 0) fail(*node, key, "'" + key + "' must be a positive number");
        return *v;
    }

    std::vector<int> positiveIntegers(const std::string& key) const {
        const toml::node* node = table_.get(key);
        if (!node) fail(line(), key, "missing key '" + key + "'");
        std::vector<int> out;
        if (auto v = node->as_integer()) {
            out.push_back(static_cast<int>(v->get()));
        } else if (auto array = node->as_array()) {
            for (const auto& element : *array) {
                auto i = element.as_integer();
                if (!i) fail(element, key, "'" + key + "' must hold integers");
                out.push_back(static_cast<int>(i->get()));
            }
        } else {
            fail(*node, key, "'" + key + "' must be an integer or a list of integers");
        }
        if (out.empty()) fail(*node, key, "'" + key + "' is empty");
        for (int n : out)
            if (n < 1) fail(*node, key, "'" + key + "' must be positive, got " + std::to_string(n));
        return out;
    }

  private:
    const toml::table& table_;
    std::string file_;
    std::string where_;
    std::vector<std::string> known_;
};

RunGroup readGroup(const toml::table& table, const std::string& file, int index) {
    TableReader r(table, file, "[[run]] #" + std::to_string(index),
                  {"workload", "dataset", "ranks", "steps", "batch_per_rank", "lr", "warmup_steps", "eval_every",
                   "eval_samples", "threads_per_rank", "seed"});
    RunGroup g;
    g.workload = r.text("workload", "", true);
    const WorkloadInfo* info = findWorkload(g.workload);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& w : workloadCatalog()) names.push_back(w.name);
        r.fail(*table.get("workload"), "workload",
               "unknown workload '" + g.workload + "' (known: " + joined(names) + ")");
    }
    g.dataset = r.text("dataset", info->datasets.front());
    if (std::find(info->datasets.begin(), info->datasets.end(), g.dataset) == info->datasets.end())
        r.fail(*table.get("dataset"), "dataset",
               "workload '" + g.workload + "' has no dataset '" + g.dataset + "' (known: " + joined(info->datasets) +
                   ")");
    g.ranks = r.positiveIntegers("ranks");
    g.steps = r.integer("steps", g.steps, 1);
    g.batch_per_rank = r.integer("batch_per_rank", info->batch_per_rank, 1);
    g.lr = r.real("lr", info->base_lr);
    g.warmup_steps = r.integer("warmup_steps", g.warmup_steps, 0);
    g.eval_every = r.integer("eval_every", g.eval_every, 0);
    g.eval_samples = r.integer("eval_samples", g.eval_samples, 1);
    g.threads_per_rank = r.integer("threads_per_rank", g.threads_per_rank, 0);
    g.seed = r.integer("seed", g.seed, 0);
    return g;
}

} // namespace

PlanError::PlanError(const std::string& file, int line, const std::string& key, const std::string& problem)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem), file_(file), line_(line), key_(key) {}

RunPlan parsePlanText(const std::string& text, const std::string& file_name) {
    toml::table root;
    try {
        root = toml::parse(text, file_name);
    } catch (const toml::parse_error& e) {
        throw PlanError(file_name, static_cast<int>(e.source().begin.line), "",
                        "not valid TOML: " + std::string(e.description()));
    }
    TableReader r(root, file_name, "", {"name", "description", "repeats", "run"});
    RunPlan plan;
    plan.source_text = text;
    plan.name = r.text("name", "", true);
    plan.description = r.text("description", "");
    plan.repeats = r.integer("repeats", 1, 1);
    const toml::node* runs = root.get("run");
    if (!runs) r.fail(1, "run", "the plan has no [[run]] table");
    const toml::array* array = runs->as_array();
    if (!array || !array->is_array_of_tables()) r.fail(*runs, "run", "'run' must be written as [[run]] tables");
    int index = 1;
    for (const auto& node : *array) plan.groups.push_back(readGroup(*node.as_table(), file_name, index++));
    return plan;
}

RunPlan parsePlanFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw PlanError(path.string(), 0, "", "cannot read the plan file");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parsePlanText(buffer.str(), path.string());
}

std::vector<RunSpec> expandPlan(const RunPlan& plan) {
    std::vector<RunSpec> runs;
    for (const auto& group : plan.groups)
        for (int ranks : group.ranks)
            for (int repeat = 1; repeat <= plan.repeats; ++repeat)
                runs.push_back({group.workload + "-" + group.dataset + "-n" + std::to_string(ranks) + "-r" +
                                    std::to_string(repeat),
                                group, ranks, repeat});
    return runs;
}

} // namespace scalebench
