// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#include "run_plan.h"

#include "batch_split.h"
#include "eval_targets.h"
#include "figure_registry.h"
#include "output_formats.h"
#include "run_keys.h"
#include "shell_words.h"
#include "system_limits.h"
#include "toml_table_reader.h"
#include "workload_catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace scalebench {
namespace {

bool isOneLinePath(const std::string& path) {
    return path.size() <= kMostPathBytes && std::none_of(path.begin(), path.end(), [](char c) {
               return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
           });
}

// A string key that must be one of `allowed`.
std::string choice(const TableReader& r, const toml::table& table, const char* key,
                   const std::string& fallback, const std::vector<std::string>& allowed) {
    const std::string value = r.text(key, fallback);
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        r.fail(*table.get(key), key,
               std::string("'") + key + "' must be one of " + joinedWords(allowed) + ", not '" + value + "'");
    return value;
}

// A list of strings, each one of `allowed`, none twice, not empty.
std::vector<std::string> choices(const TableReader& r, const toml::table& table, const char* key,
                                 std::vector<std::string> fallback, const std::vector<std::string>& allowed) {
    const toml::node* node = table.get(key);
    if (!node) return fallback;
    const std::vector<std::string> values = r.texts(key);
    if (values.empty()) r.fail(*node, key, std::string("'") + key + "' is empty");
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::find(allowed.begin(), allowed.end(), values[i]) == allowed.end())
            r.fail(*node, key,
                   std::string("'") + key + "' holds '" + values[i] + "' (known: " + joinedWords(allowed) +
                       ")");
        if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i), values[i]) !=
            values.begin() + static_cast<std::ptrdiff_t>(i))
            r.fail(*node, key, std::string("'") + key + "' names '" + values[i] + "' twice");
    }
    return values;
}

// env = { NAME = "value", ... }: names a shell accepts, string values.
std::map<std::string, std::string> environment(const TableReader& r, const toml::table& table) {
    std::map<std::string, std::string> env;
    const toml::node* node = table.get("env");
    if (!node) return env;
    const toml::table* t = node->as_table();
    if (!t) r.fail(*node, "env", "'env' must be a table of NAME = \"value\"");
    for (auto&& [key, value] : *t) {
        const std::string name(key.str());
        if (!isEnvironmentVariableName(name))
            r.fail(value, "env",
                   "'" + name +
                       "' in 'env' is not an environment variable name (letters, digits and '_', "
                       "not starting with a digit)");
        auto v = value.value<std::string>();
        if (!v) r.fail(value, "env", "'env' value of " + name + " must be a string");
        // As a cluster's nccl_env: an `export NAME='value'` line of a job script (sbatch refuses "\r\n"), and
        // `mpirun -x NAME=value` here, one argument (no NUL, at most the kernel's MAX_ARG_STRLEN).
        if (v->find_first_of(std::string("\n\r\0", 3)) != std::string::npos)
            r.fail(value, "env", "'env' value of " + name + " must be on one line, without NUL");
        if (name.size() + 1 + v->size() >= kMostArgumentBytes)
            r.fail(value, "env",
                   "'env' variable " + name.substr(0, 64) + " is " +
                       std::to_string(name.size() + 1 + v->size()) +
                       " bytes as NAME=value: a process gets at most " +
                       std::to_string(kMostArgumentBytes - 1));
        env[name] = *v;
    }
    return env;
}

// The group's quality target, in the unit the console shows its metric in (accuracy in %): `target`, or the
// old `target_accuracy` (a fraction, read as target = 100 x it with a warning); left out, the target the
// workload's seed states for this data set (0, none, where it states none).
double readTarget(const TableReader& r, const toml::table& table, const WorkloadInfo& info,
                  const std::string& dataset, std::vector<std::string>& warnings) {
    const toml::node* old_key = table.get("target_accuracy");
    const toml::node* key = table.get("target");
    if (old_key && key)
        r.fail(*old_key, "target_accuracy", "give 'target' or the old 'target_accuracy', not both");
    double target = defaultTarget(info, dataset);
    if (key) {
        const auto value = key->value<double>(); // integers convert too
        if (!value || !std::isfinite(*value))    // TOML's nan and inf are no target
            r.fail(*key, "target", "'target' must be a number (0: none, run all steps)");
        target = *value;
    }
    if (old_key) {
        if (info.eval_metric != "accuracy")
            r.fail(*old_key, "target_accuracy",
                   "'" + info.name + "' is evaluated by " + info.eval_metric +
                       ", not accuracy: use 'target'");
        const double fraction = r.real("target_accuracy", 0);
        if (fraction < 0 || fraction > 1)
            r.fail(*old_key, "target_accuracy",
                   "'target_accuracy' is a fraction: more than 0, at most 1 (or write target = 80 for 80 %)");
        target = fraction * 100;
        warnings.push_back(r.where(*old_key) + "'target_accuracy = " + engine_cli::formatValue(fraction) +
                           "' is the old form of 'target = " + engine_cli::formatValue(target) +
                           "' (accuracy in %, as the console shows it)");
    }
    if (const std::string problem = eval_targets::targetProblem(info.eval_metric, target); !problem.empty())
        r.fail(old_key ? *old_key : *key, old_key ? "target_accuracy" : "target",
               "'target' of " + info.name + " (" + info.eval_metric + "): " + problem);
    return target;
}

// The per-rank batch at the group's i-th rank count.
int batchPerRankAt(const RunGroup& g, std::size_t i) {
    return g.batch_per_rank_by_ranks.empty() ? g.batch_per_rank : g.batch_per_rank_by_ranks.at(i);
}

// The keys a [[run]] with a `command` takes besides the ranks and how they are placed.
const std::vector<std::string> kCommandKeys = {"command",         "format",           "output",
                                               "container_image", "container_mounts", "name"};
const std::vector<std::string> kCommandGroupKeys = {
    "name",          "command",       "format",           "output", "container_image",  "ranks",
    "exclude_nodes", "gpus_per_node", "container_mounts", "env",    "threads_per_rank", "peak_tflops"};

// exclude_nodes: host names as Slurm takes them in --exclude (letters, digits, '.', '_', '-').
std::vector<std::string> excludedNodes(const TableReader& r, const toml::table& table) {
    std::vector<std::string> nodes = r.texts("exclude_nodes");
    for (const std::string& node : nodes)
        if (node.empty() || node.size() > 255 ||
            node.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
                std::string::npos)
            r.fail(*table.get("exclude_nodes"), "exclude_nodes",
                   "'exclude_nodes' holds '" + node.substr(0, 100) +
                       "': a node's host name (letters, digits, '.', '_', '-'), one an entry");
    return nodes;
}

// A file the command writes in its attempt's folder: a relative path that stays there.
bool isPathInsideFolder(const std::string& path) {
    if (path.empty() || path.front() == '/' || !isOneLinePath(path)) return false;
    for (std::size_t start = 0; start <= path.size();) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        if (path.compare(start, end - start, "..") == 0 && end - start == 2) return false;
        start = end + 1;
    }
    return true;
}

// A [[run]] with a `command` takes only kCommandGroupKeys: the engine's workload keys are refused.
void refuseWorkloadKeys(const TableReader& r, const toml::table& table) {
    for (auto&& [key, value] : table)
        if (std::find(kCommandGroupKeys.begin(), kCommandGroupKeys.end(), std::string(key.str())) ==
            kCommandGroupKeys.end())
            r.fail(value, std::string(key.str()),
                   "'" + std::string(key.str()) +
                       "' is a setting of the engine's workloads: a [[run]] with a " + "'command' takes " +
                       joinedWords(kCommandGroupKeys));
}

// `command`: a command line split as a shell would, or a list of words; a program first, and words a process
// can be given.
std::vector<std::string> commandWords(const TableReader& r, const toml::table& table) {
    std::vector<std::string> argv;
    const toml::node& command = *table.get("command");
    if (command.is_string()) {
        try {
            argv = splitCommandLine(*command.value<std::string>());
        } catch (const std::invalid_argument& e) {
            r.fail(command, "command", std::string("'command': ") + e.what());
        }
    } else if (command.is_array()) {
        argv = r.texts("command");
    } else {
        r.fail(command, "command", "'command' must be a string or a list of strings");
    }
    if (argv.empty() || argv.front().empty()) r.fail(command, "command", "'command' names no program");
    for (const auto& word : argv)
        if (word.find('\0') != std::string::npos || word.size() >= kMostArgumentBytes)
            r.fail(command, "command",
                   "'command' holds a word with NUL or of more than " +
                       std::to_string(kMostArgumentBytes - 1) + " bytes: a process cannot be given it");
    return argv;
}

// How the command's output reads (`format`, required) and the file it is in (`output`), where the format
// reads a file.
void readCommandOutput(const TableReader& r, const toml::table& table, CommandRun& c) {
    if (!table.get("format"))
        r.fail(*table.get("command"), "format",
               "a [[run]] with a 'command' says how its output reads: 'format' = " +
                   joinedWords(availableFormats()) + " or a format definition (docs/metric-stream.md)");
    c.format = r.text("format", "", true);
    try {
        checkOutputFormat(c.format);
    } catch (const std::exception& e) {
        r.fail(*table.get("format"), "format", std::string("'format': ") + e.what());
    }
    c.output = r.text("output", "");
    if (const toml::node* node = table.get("output"); node && !isPathInsideFolder(c.output))
        r.fail(*node, "output",
               "'output' is the file the command writes for the console, relative to its run's folder (no "
               "'..', not absolute, one line): '" +
                   c.output.substr(0, 200) + "' is not");
    if (formatReadsFileOnly(c.format) && c.output.empty())
        r.fail(*table.get("format"), "output",
               "format '" + c.format + "' is read from the file the command writes: name it in 'output' " +
                   "(as the command's -J option does)");
}

// The container the command runs in (`container_image`) and what is mounted into it (`container_mounts`).
void readCommandContainer(const TableReader& r, const toml::table& table, CommandRun& c) {
    c.container_image = r.text("container_image", "");
    if (const toml::node* node = table.get("container_image");
        node && (c.container_image.empty() || c.container_image.find_first_of(" \t,") != std::string::npos ||
                 !isOneLinePath(c.container_image)))
        r.fail(*node, "container_image",
               "'container_image' must be an image name on one line without blanks or commas "
               "(nvcr.io#nvidia/pytorch:24.04-py3)");
    if (const toml::node* node = table.get("container_mounts")) {
        c.container_mounts = node->is_string() ? std::vector<std::string>{*node->value<std::string>()}
                                               : r.texts("container_mounts");
        for (const auto& mount : c.container_mounts)
            if (mount.empty() || mount.find_first_of(" \t,") != std::string::npos || !isOneLinePath(mount))
                r.fail(*node, "container_mounts",
                       "'container_mounts' holds '" + mount.substr(0, 200) +
                           "': each is SOURCE[:TARGET[:FLAGS]] on one line, without blanks or commas");
        if (c.container_image.empty())
            r.fail(*node, "container_mounts", "'container_mounts' needs a 'container_image' to mount into");
    }
}

// `name`: what the group's runs and their folders are named; "" where left out.
std::string commandRunName(const TableReader& r, const toml::table& table) {
    const std::string name = r.text("name", "");
    if (const toml::node* node = table.get("name");
        node && (name.empty() || runNameOfProgram(name) != name || name.size() > 100))
        r.fail(*node, "name",
               "'name' names the group's runs and their folders: letters, digits, '.', '_' and '-', at most "
               "100, "
               "not '" +
                   name.substr(0, 200) + "'");
    return name;
}

RunGroup readCommandGroup(const TableReader& r, const toml::table& table) {
    refuseWorkloadKeys(r, table);
    RunGroup g;
    CommandRun& c = g.command;
    c.argv = commandWords(r, table);
    readCommandOutput(r, table, c);
    readCommandContainer(r, table, c);
    c.name = commandRunName(r, table);
    g.workload = c.name.empty() ? std::filesystem::path(c.argv.front()).filename().string() : c.name;
    g.dataset.clear();
    g.ranks = r.positiveIntegers("ranks");
    g.threads_per_rank = r.integer("threads_per_rank", g.threads_per_rank, 0);
    g.gpus_per_node = r.integer("gpus_per_node", g.gpus_per_node, 1);
    g.peak_tflops = r.real("peak_tflops", g.peak_tflops); // MFU of a trainer that prints its TFLOP/s
    g.env = environment(r, table);
    g.exclude_nodes = excludedNodes(r, table);
    return g;
}

// The plan keys whose reading is their own (below): the rest are read by their row of the option table.
bool readByHand(const std::string& key) {
    for (const char* special : {"workload", "dataset", "batch_per_rank", "target", "preset", "in_place"})
        if (key == special) return true;
    return false;
}

// One plan key as its row of the option table says: a string among the accepted words (any string where the
// row names none), an integer at least the row's least value, a number above 0, true or false, or a list of
// accepted words. Left out: `value` stays as it is.
template <engine_cli::Kind K>
void readKey(const TableReader& r, const toml::table& table, const char* key, const char* accepts,
             engine_cli::Value<K>& value) {
    using engine_cli::Kind;
    if (!table.get(key) || readByHand(key)) return;
    if constexpr (K == Kind::Text)
        value = *accepts ? choice(r, table, key, value, engine_cli::splitWords(accepts, '|'))
                         : r.text(key, value);
    else if constexpr (K == Kind::Int)
        value = r.integer(key, value, std::stoi(accepts));
    else if constexpr (K == Kind::Real)
        value = r.real(key, value);
    else if constexpr (K == Kind::Switch)
        value = r.boolean(key, value);
    else
        value = choices(r, table, key, value, engine_cli::splitWords(accepts, '|'));
}

// The keys read by hand: which workload and data set (the catalog's), the batch per rank (one, or one per
// rank count), the quality target (or its old form), the preset (the workload's) and in_place (true, false,
// "both").
const WorkloadInfo& readWorkload(const TableReader& r, const toml::table& table, RunGroup& g) {
    g.workload = r.text("workload", "", true);
    const WorkloadInfo* info = findWorkload(g.workload);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& w : workloadCatalog())
            names.push_back(w.name);
        r.fail(*table.get("workload"), "workload",
               "unknown workload '" + g.workload + "' (known: " + joinedWords(names) + ")");
    }
    const std::string dataset = r.text("dataset", info->datasets.front());
    if (std::find(info->datasets.begin(), info->datasets.end(), dataset) == info->datasets.end())
        r.fail(*table.get("dataset"), "dataset",
               "workload '" + g.workload + "' has no dataset '" + dataset +
                   "' (known: " + joinedWords(info->datasets) + ")");
    g = groupDefaults(*info, dataset);
    return *info;
}

void readBatchPerRank(const TableReader& r, const toml::table& table, RunGroup& g) {
    const toml::node* node = table.get("batch_per_rank");
    if (!node || !node->is_array()) {
        g.batch_per_rank = r.integer("batch_per_rank", g.batch_per_rank, 1);
        return;
    }
    g.batch_per_rank_by_ranks = r.positiveIntegers("batch_per_rank");
    if (g.batch_per_rank_by_ranks.size() != g.ranks.size())
        r.fail(*node, "batch_per_rank",
               "'batch_per_rank' as a list holds one batch per entry of 'ranks': " +
                   std::to_string(g.batch_per_rank_by_ranks.size()) + " for " +
                   std::to_string(g.ranks.size()) + " rank counts");
    g.batch_per_rank = g.batch_per_rank_by_ranks.front();
}

void readPresetAndInPlace(const TableReader& r, const toml::table& table, const WorkloadInfo& info,
                          RunGroup& g) {
    if (!info.presets.empty()) {
        g.preset = choice(r, table, "preset", g.preset, info.presets);
        if (const std::string why = presetRefusal(g.workload, g.preset); !why.empty())
            r.fail(table.get("preset") ? static_cast<int>(table.get("preset")->source().begin.line)
                                       : r.line(),
                   "preset", "'" + g.workload + "' preset '" + g.preset + "' cannot run here: " + why);
    }
    if (const toml::node* node = table.get("in_place")) {
        if (auto b = node->value<bool>())
            g.in_place = *b ? "yes" : "no";
        else if (node->value<std::string>() == "both")
            g.in_place = "both";
        else
            r.fail(*node, "in_place", "'in_place' must be true, false or \"both\"");
    }
}

// What no single key says: where the data is, how long, how the global batch splits, the precision the
// workload has, and the self-check with no log.
void checkGroup(const TableReader& r, const toml::table& table, const WorkloadInfo& info, const RunGroup& g) {
    if (const toml::node* node = table.get("data_dir"); node && g.data_dir.empty())
        r.fail(*node, "data_dir",
               "'data_dir' must not be empty (left out: the cluster's data_root/" + g.dataset + ")");
    if (const toml::node* node = table.get("data_dir"); node && !isOneLinePath(g.data_dir))
        r.fail(*node, "data_dir",
               "'data_dir' must be a path on one line, without control characters, at most " +
                   std::to_string(kMostPathBytes) + " bytes");
    if (table.get("epochs") && table.get("steps"))
        r.fail(*table.get("epochs"), "epochs",
               "'epochs' and 'steps' both say how long to train: give one of them");
    if (std::find(info.precisions.begin(), info.precisions.end(), g.precision) == info.precisions.end())
        r.fail(table.get("precision") ? static_cast<int>(table.get("precision")->source().begin.line)
                                      : r.line(),
               "precision",
               "workload '" + g.workload + "' supports precision " + joinedWords(info.precisions) +
                   " only, not '" + g.precision + "'");
    // The self-check trains no steps: it writes no MLPerf log and has no quality target to reach.
    if (g.check_device && table.get("mllog") && g.mllog)
        r.fail(*table.get("mllog"), "mllog",
               "'mllog' and 'check_device' do not go together: the device self-check trains no run to log");
    if (const toml::node* node = table.get("global_batch"))
        for (std::size_t i = 0; i < g.ranks.size(); ++i)
            try {
                engine_cli::splitGlobalBatch(g.global_batch, g.ranks[i], batchPerRankAt(g, i));
            } catch (const std::invalid_argument& e) {
                r.fail(*node, "global_batch", std::string("'global_batch': ") + e.what());
            }
}

RunGroup readGroup(const toml::table& table, const std::string& file, int index,
                   std::vector<std::string>& warnings) {
    std::vector<std::string> known = engineRunKeys();
    known.insert(known.end(), kCommandKeys.begin(), kCommandKeys.end());
    TableReader r(table, file, "[[run]] #" + std::to_string(index), known);
    if (table.get("command")) return readCommandGroup(r, table);
    for (const auto& key : kCommandKeys)
        if (const toml::node* node = table.get(key))
            r.fail(*node, key, "'" + key + "' belongs to a [[run]] with a 'command', and this one has none");
    RunGroup g;
    const WorkloadInfo& info = readWorkload(r, table, g);
    g.ranks = r.positiveIntegers("ranks");
    refuseKeysOutOfScope(r, table, info);
#define SCALEBENCH_READ_KEY(name, kind, accepts, scope, ...)                                                 \
    readKey<engine_cli::Kind::kind>(r, table, #name, accepts, g.name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_READ_KEY)
#undef SCALEBENCH_READ_KEY
    readBatchPerRank(r, table, g);
    g.target = readTarget(r, table, info, g.dataset, warnings);
    readPresetAndInPlace(r, table, info, g);
    g.gpus_per_node = r.integer("gpus_per_node", g.gpus_per_node, 1);
    g.mllog = r.boolean("mllog", g.mllog);
    g.env = environment(r, table);
    g.exclude_nodes = excludedNodes(r, table);
    checkGroup(r, table, info, g);
    return g;
}

} // namespace

std::string runNameOfProgram(const std::string& program) {
    std::string name;
    for (unsigned char c : program)
        name += (std::isalnum(c) || c == '.' || c == '_' || c == '-') ? char(c) : '_';
    return name.empty() || name == "." || name == ".." ? "command" : name;
}

bool isEnvironmentVariableName(const std::string& name) {
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
    if (name.empty() || !letter(name[0])) return false;
    return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// One [[reference]]: which runs, which figure, its value, bounds and unit.
Reference readReference(const toml::table& table, const std::string& file, int index) {
    TableReader r(table, file, "[[reference]] #" + std::to_string(index),
                  {"workload", "ranks", "cluster", "figure", "value", "lower", "upper", "unit", "bytes"});
    Reference ref;
    ref.line = r.line();
    ref.workload = r.text("workload", "", true);
    if (table.get("ranks")) ref.ranks = r.integer("ranks", 1, 1);
    ref.cluster = r.text("cluster", "");
    ref.figure = r.text("figure", "", true);
    std::vector<std::string> names;
    const std::vector<FigureStyle> figures = referenceFigures();
    for (const FigureStyle& f : figures)
        names.emplace_back(f.reference);
    const auto figure = std::find_if(figures.begin(), figures.end(),
                                     [&](const FigureStyle& f) { return f.reference == ref.figure; });
    if (figure == figures.end())
        r.fail(*table.get("figure"), "figure",
               "no figure '" + ref.figure + "' (figures: " + joinedWords(names) + ")");
    if (!table.get("value")) r.fail(r.line(), "value", "a [[reference]] needs the figure's 'value'");
    ref.value = r.real("value", 0);
    if (!(ref.value > 0) || !std::isfinite(ref.value))
        r.fail(*table.get("value"), "value", "'value' must be a positive number");
    if (table.get("lower")) {
        ref.lower = r.number("lower", 0);
        if (!(*ref.lower <= 0 && *ref.lower >= -1))
            r.fail(*table.get("lower"), "lower",
                   "'lower' is a fraction of value in [-1, 0] (-0.1: 10 % below)");
    }
    if (table.get("upper")) {
        ref.upper = r.number("upper", 0);
        if (!(*ref.upper >= 0) || !std::isfinite(*ref.upper))
            r.fail(*table.get("upper"), "upper",
                   "'upper' is a fraction of value, 0 or more (0.1: 10 % above)");
    }
    if (!ref.lower && !ref.upper)
        r.fail(r.line(), "lower", "a [[reference]] bounds its figure: give 'lower', 'upper' or both");
    const std::string unit(figure->unit);
    ref.unit = r.text("unit", unit);
    if (ref.unit != unit)
        r.fail(*table.get("unit"), "unit", "'" + ref.figure + "' is in " + unit + ", not '" + ref.unit + "'");
    if (ref.figure == "busbw_gbps") {
        if (!table.get("bytes"))
            r.fail(r.line(), "bytes", "a busbw_gbps reference names its message size in 'bytes'");
        ref.bytes = r.integer("bytes", 1, 1);
    } else if (const toml::node* node = table.get("bytes")) {
        r.fail(*node, "bytes", "'bytes' applies to busbw_gbps only");
    }
    return ref;
}

RunPlan parsePlanText(const std::string& text, const std::string& file_name) {
    const toml::table root = parseTomlDocument(text, file_name);
    TableReader r(root, file_name, "",
                  {"name", "description", "repeats", "run", "reference", "regression_threshold"});
    RunPlan plan;
    plan.source_text = text;
    plan.name = r.text("name", "", true);
    if (plan.name.find_first_not_of(" \t") == std::string::npos)
        r.fail(*root.get("name"), "name", "'name' must not be empty");
    plan.description = r.text("description", "");
    plan.repeats = r.integer("repeats", 1, 1);
    plan.groups = readArrayOfTables(root, file_name, "run", r,
                                    [&](const toml::table& table, const std::string& file, int index) {
                                        return readGroup(table, file, index, plan.warnings);
                                    });
    plan.regression_threshold = r.real("regression_threshold", plan.regression_threshold);
    if (!(plan.regression_threshold < 1))
        r.fail(*root.get("regression_threshold"), "regression_threshold",
               "'regression_threshold' is the least relative change worth calling, a fraction in (0, 1)");
    if (root.get("reference"))
        plan.references = readArrayOfTables(root, file_name, "reference", r, readReference);
    // A session of more runs than a store and a scheduler can follow is a typo (repeats = 1111111110),
    // refused before it is expanded.
    std::size_t runs = 0;
    for (const auto& group : plan.groups)
        runs += group.ranks.size();
    if (runs * static_cast<std::size_t>(plan.repeats) > kMostRunsInPlan)
        r.fail(root.get("repeats") ? static_cast<int>(root.get("repeats")->source().begin.line) : 1,
               "repeats",
               "the plan makes " + std::to_string(runs) + " run(s) x " + std::to_string(plan.repeats) +
                   " repeat(s): more than " + std::to_string(kMostRunsInPlan) + " runs in one session");
    return plan;
}

RunPlan parsePlanFile(const std::filesystem::path& path) {
    return parsePlanText(readTomlFile(path, "plan file"), path.string());
}

bool runsEngine(const std::vector<RunSpec>& runs) {
    return std::any_of(runs.begin(), runs.end(), [](const RunSpec& run) { return !run.group.isCommand(); });
}

std::vector<RunSpec> expandPlan(const RunPlan& plan) {
    std::vector<RunSpec> runs;
    std::set<std::string> names; // run names name run folders: they must differ
    for (std::size_t g = 0; g < plan.groups.size(); ++g) {
        const RunGroup& group = plan.groups[g];
        // workload-dataset[-backend]: a group on another backend than MPI says so; a group that would still
        // repeat an earlier group's names gets its number.
        std::string stem =
            group.workload + (group.preset.empty() ? "" : "-" + group.preset) + "-" + group.dataset;
        if (group.backend != RunGroup{}.backend) stem += "-" + group.backend;
        if (group.isCommand()) stem = runNameOfProgram(group.workload);
        const auto nameOf = [&](const std::string& base, int ranks, int repeat) {
            return base + "-n" + std::to_string(ranks) + "-r" + std::to_string(repeat);
        };
        for (int ranks : group.ranks)
            if (names.count(nameOf(stem, ranks, 1))) {
                stem += "-g" + std::to_string(g + 1);
                break;
            }
        for (std::size_t i = 0; i < group.ranks.size(); ++i)
            for (int repeat = 1, ranks = group.ranks[i]; repeat <= plan.repeats; ++repeat) {
                RunSpec run{nameOf(stem, ranks, repeat), group, ranks, repeat};
                run.group.batch_per_rank = batchPerRankAt(group, i);
                names.insert(run.name);
                if (group.gpus_per_node > 0) {
                    run.ranks_per_node = std::min(ranks, group.gpus_per_node);
                    run.nodes = (ranks + group.gpus_per_node - 1) / group.gpus_per_node;
                }
                run.environment = group.env;
                runs.push_back(std::move(run));
            }
    }
    return runs;
}

} // namespace scalebench
