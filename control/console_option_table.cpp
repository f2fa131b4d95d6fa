// The console's command line, written once: the table of options, the table of commands, the old flag
// forms, and the defaults the help shows.
#include "console_option_table.h"

#include "install_layout.h"
#include "local_engine.h"
#include "output_formats.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace scalebench::console_cli {
namespace {

// "projection" is the Scaling tab on its Projection page.
const std::vector<std::string> tab_names = {"plan",      "runs",        "live",    "scaling", "projection",
                                            "breakdown", "collectives", "compare", "clusters"};

int wholeNumber(const std::string& text, const std::string& what) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument("'" + text + "' is not " + what);
    return value;
}

// A number of 0 or more, all of `text`; throws naming `what` otherwise.
double nonNegative(const std::string& text, const std::string& what) {
    std::size_t used = 0;
    double value = -1;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
    }
    if (used != text.size() || !(value >= 0) || !std::isfinite(value))
        throw std::invalid_argument(what + " (0 or more), not '" + text + "'");
    return value;
}

std::int64_t sessionId(const std::string& text) {
    std::int64_t id = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || id < 1)
        throw std::invalid_argument("'" + text +
                                    "' is not a session id (a number: run prints it, the window lists it)");
    return id;
}

} // namespace

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
    std::string text;
    for (const auto& w : words)
        text += (text.empty() ? "" : separator) + w;
    return text;
}

const std::vector<Option>& options() {
    using O = ConsoleOptions;
    static const std::vector<Option> table = {
        {"db", "FILE", "the session store", [](const O& d) { return d.db.string(); },
         [](O& o, const std::string& v) { o.db = v; }},
        {"cluster", "NAME",
         "run the plan there (a cluster kept by add-clusters) as Slurm jobs over SSH, after "
         "deploying the engine",
         [](const O&) { return std::string("this machine, with mpirun"); },
         [](O& o, const std::string& v) { o.cluster = v; }},
        {"dry-run", "",
         "print each run's mpirun line (with --cluster its sbatch script and the engine's deployment), "
         "connect to nothing and run nothing",
         nullptr, [](O& o, const std::string&) { o.dry_run = true; }},
        {"check", "",
         "with --dry-run --cluster: connect and check what the runs and the engine's build need there "
         "(exit 2 naming what is missing)",
         nullptr, [](O& o, const std::string&) { o.check = true; }},
        {"out", "DIR", "run folders, results.csv and scaling.png",
         [](const O& d) { return d.out_dir.string(); }, [](O& o, const std::string& v) { o.out_dir = v; }},
        {"engine", "PATH", "the scalebench-engine executable on this machine",
         [](const O& d) { return d.engine; }, [](O& o, const std::string& v) { o.engine = v; }},
        {"engine-sources", "DIR", "what is deployed to a cluster and built there",
         [](const O& d) { return d.engine_sources.string(); },
         [](O& o, const std::string& v) { o.engine_sources = v; }},
        {"torch-python", "PYTHON",
         "where no engine is beside scalebench or on PATH, the engine is built on first use (into the user's "
         "cache, once per source hash) against the torch package of this Python (also "
         "SCALEBENCH_TORCH_PYTHON)",
         [](const O& d) { return d.torch_python; }, [](O& o, const std::string& v) { o.torch_python = v; }},
        {"poll-ms", "MS", "how often the runs' jobs and records are read, in milliseconds, at least 10",
         [](const O& d) { return std::to_string(d.poll_ms); },
         [](O& o, const std::string& v) {
             o.poll_ms = wholeNumber(v, "a number of milliseconds");
             if (o.poll_ms < 10) throw std::invalid_argument("at least 10, not " + v);
         }},
        {"baseline", "SESSION",
         "judge each figure against this stored session's: an id, a session's name (its newest), or 'last' "
         "(the latest earlier session of the same plan on the same cluster that ended ok); a change beyond "
         "the noise of the repeats in the worse direction is a regression (run: exit 3; report: a section "
         "'Regressions against' the baseline)",
         nullptr,
         [](O& o, const std::string& v) {
             if (v.find_first_not_of(" \t") == std::string::npos)
                 throw std::invalid_argument("a session's id or name, or 'last', not an empty word");
             o.baseline = v;
         }},
        {"junit", "FILE", "write JUnit XML: one test case per run and per figure with a verdict", nullptr,
         [](O& o, const std::string& v) { o.junit = v; }},
        {"step-time", "WHICH",
         "which steps the results' throughput comes from: median (of the steady-state steps) or last-step "
         "(MaxText's convention: the last step's time)",
         [](const O& d) { return d.step_time; },
         [](O& o, const std::string& v) {
             if (v != "median" && v != "last-step")
                 throw std::invalid_argument("median or last-step, not '" + v + "'");
             o.step_time = v;
         }},
        {"tab", "TAB", "open on this tab: " + joined(tab_names, ", "),
         [](const O&) { return std::string("runs"); },
         [](O& o, const std::string& v) {
             if (std::find(tab_names.begin(), tab_names.end(), v) == tab_names.end())
                 throw std::invalid_argument("no tab '" + v + "' (tabs: " + joined(tab_names, ", ") + ")");
             o.tab = v;
         }},
        {"screenshot", "PNG", "save the window to this PNG and quit", nullptr,
         [](O& o, const std::string& v) { o.screenshot = v; }},
        {"format", "FORMAT",
         "how the files read: " + joined(kOutputFormats, ", ") +
             ", a shipped format definition (megatron-lm, nemo, torchtitan), NAME.toml in " +
             "the user's formats folder, or a definition file (docs/metric-stream.md); import without it: "
             "each file's own, told from its content",
         nullptr,
         [](O& o, const std::string& v) {
             checkOutputFormat(v); // names the formats there are, or what is wrong with a definition
             o.format = v;
         }},
        {"session", "NAME", "the imported session's name", [](const O&) { return std::string("imported"); },
         [](O& o, const std::string& v) {
             if (v.find_first_not_of(" \t") == std::string::npos)
                 throw std::invalid_argument("a session needs a name");
             o.session_name = v;
         }},
        {"peak-tflops", "T",
         "dense peak TFLOP/s of one device, for the MFU of a trainer that prints its TFLOP/s (MaxText); 0: "
         "no MFU",
         [](const O& d) {
             std::ostringstream shown;
             shown << d.peak_tflops;
             return shown.str();
         },
         [](O& o, const std::string& v) { o.peak_tflops = nonNegative(v, "a peak in TFLOP/s"); }},
        {"output",
         "FILE",
         "the report's HTML page (also -o FILE)",
         [](const O& d) { return d.report_file.string(); },
         [](O& o, const std::string& v) { o.report_file = v; },
         {"o"}},
        {"to", "LIST", "the rank counts to predict, comma-separated",
         [](const O& d) {
             std::string shown;
             for (const int n : d.project_ranks)
                 shown += (shown.empty() ? "" : ",") + std::to_string(n);
             return shown;
         },
         [](O& o, const std::string& v) {
             o.project_ranks.clear();
             std::istringstream list(v);
             for (std::string word; std::getline(list, word, ',');) {
                 const int n = wholeNumber(word, "a rank count");
                 if (n < 1) throw std::invalid_argument("rank counts of at least 1, not " + word);
                 o.project_ranks.push_back(n);
             }
             if (o.project_ranks.empty()) throw std::invalid_argument("at least one rank count");
         }},
        {"global-batch", "G",
         "predict with a fixed global batch of G samples (each rank's share shrinks with N); 0: weak "
         "scaling, "
         "the batch per rank stays",
         [](const O& d) { return std::to_string(d.global_batch); },
         [](O& o, const std::string& v) {
             o.global_batch = wholeNumber(v, "a number of samples");
             if (o.global_batch < 0) throw std::invalid_argument("0 or more, not " + v);
         }},
        {"ranks-per-node", "R",
         "predict for R ranks per node (from N > R on, the all-reduce crosses nodes); 0: as the session ran "
         "(a "
         "cluster's tasks_per_node, this machine: one node)",
         [](const O& d) { return std::to_string(d.ranks_per_node); },
         [](O& o, const std::string& v) {
             o.ranks_per_node = wholeNumber(v, "a number of ranks");
             if (o.ranks_per_node < 0) throw std::invalid_argument("0 or more, not " + v);
         }},
        {"samples-to-train", "S", "samples a training takes: the time to train at each N (0: none)",
         [](const O&) { return std::string("0"); },
         [](O& o, const std::string& v) { o.samples_to_train = nonNegative(v, "a number of samples"); }},
        {"price", "P",
         "the price of one GPU-hour (on CPU runs, one rank-hour): the cost per hour and to train at each "
         "N (0: none)",
         [](const O&) { return std::string("the session's cluster's price_per_gpu_hour"); },
         [](O& o, const std::string& v) { o.price_per_gpu_hour = nonNegative(v, "a price per GPU-hour"); }},
        {"currency", "C", "the price's currency, three upper-case letters as ISO 4217 writes it (USD, EUR)",
         [](const O&) { return std::string("the session's cluster's, else USD"); },
         [](O& o, const std::string& v) {
             if (v.size() != 3 ||
                 !std::all_of(v.begin(), v.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
                 throw std::invalid_argument("three upper-case letters (USD, EUR, CHF), not '" + v + "'");
             o.currency = v;
         }},
        {"ranks", "N",
         "processes of each imported run, where its log does not say (OSU's never does; MaxText's "
         "Num_devices line does)",
         nullptr,
         [](O& o, const std::string& v) {
             o.ranks = wholeNumber(v, "a number of processes");
             if (o.ranks < 1) throw std::invalid_argument("at least 1, not " + v);
         }},
    };
    return table;
}

const std::vector<Command>& commands() {
    using O = ConsoleOptions;
    static const std::vector<Command> table = {
        {"",
         O::Mode::Gui,
         {},
         "open the console's window on the session store; the plans it launches run in runs/ beside the "
         "store",
         {"db", "tab", "screenshot"},
         nullptr},
        {"run",
         O::Mode::Batch,
         {"PLAN"},
         "run every run of the plan on this machine with mpirun (or with --cluster as Slurm jobs), store the "
         "session as records arrive, print the results table, write OUT/results.csv and OUT/scaling.png",
         {"cluster", "dry-run", "check", "db", "out", "engine", "engine-sources", "torch-python", "poll-ms",
          "step-time", "baseline", "junit"},
         [](O& o, const Arguments& a) { o.plan = a[0]; }},
        {"compare",
         O::Mode::Compare,
         {"A", "B"},
         "every figure of session A (the reference) against session B, and the settings that differ",
         {"db", "step-time"},
         [](O& o, const Arguments& a) {
             o.compare_a = sessionId(a[0]);
             o.compare_b = sessionId(a[1]);
         }},
        {"report",
         O::Mode::Report,
         {"SESSION"},
         "write one self-contained HTML page of a stored session (its id or name; the newest of that name): "
         "its results table, scaling, speedup, breakdown and collectives charts as inline SVG, MLPerf "
         "scores, "
         "verdicts, slow ranks and nodes, and with --baseline each figure's change against another session",
         {"db", "output", "step-time", "baseline"},
         [](O& o, const Arguments& a) {
             if (a[0].find_first_not_of(" \t") == std::string::npos)
                 throw std::invalid_argument("a session's id or name, not an empty word");
             o.report_session = a[0];
         }},
        {"project",
         O::Mode::Project,
         {"SESSION"},
         "predict each training series of a stored session (its id or name) at other rank counts: measured "
         "compute, the all-reduce predicted from the session's sweep, less the overlap its runs measured "
         "(docs/performance-model.md); says where it extrapolates. SESSION may instead be a FILE.toml of "
         "stated inputs (a published step time, link figures: bench/seeds/*.toml)",
         {"db", "to", "global-batch", "ranks-per-node", "samples-to-train", "price", "currency"},
         [](O& o, const Arguments& a) {
             if (a[0].find_first_not_of(" \t") == std::string::npos)
                 throw std::invalid_argument("a session's id or name, not an empty word");
             if (std::filesystem::path(a[0]).extension() == ".toml")
                 o.project_inputs = a[0];
             else
                 o.report_session = a[0];
         }},
        {"import",
         O::Mode::Import,
         {"FILE..."},
         "read logs of runs that already happened (nccl-tests, OSU, MLLOG, MaxText, a metric stream) in "
         "--format, one run per file, into one stored session beside those scalebench ran",
         {"db", "format", "session", "ranks", "peak-tflops", "step-time"},
         [](O& o, const Arguments& a) { o.import_files.assign(a.begin(), a.end()); }},
        {"delete",
         O::Mode::Delete,
         {"SESSION"},
         "delete a stored session (its id, or its name: the newest of that name), its runs and their records "
         "from the store; its runs' folders stay",
         {"db"},
         [](O& o, const Arguments& a) {
             if (a[0].find_first_not_of(" \t") == std::string::npos)
                 throw std::invalid_argument("a session's id or name, not an empty word");
             o.report_session = a[0];
         }},
        {"add-clusters",
         O::Mode::AddClusters,
         {"FILE"},
         "keep the [[cluster]] tables of FILE in the store, for run --cluster NAME",
         {"db"},
         [](O& o, const Arguments& a) { o.cluster_file = a[0]; }},
    };
    return table;
}

const std::vector<OldForm>& oldForms() {
    static const std::vector<OldForm> table = {
        {"batch", "run"}, {"compare", "compare"}, {"add-clusters", "add-clusters"}};
    return table;
}

const Option& option(const std::string& name) {
    for (const Option& o : options())
        if (o.name == name) return o;
    throw std::logic_error("commands() names an option options() lacks: " + name);
}

const Command* command(const std::string& name) {
    for (const Command& c : commands())
        if (c.name == name) return &c;
    return nullptr;
}

bool applies(const Command& c, const std::string& option_name) {
    return std::find(c.options.begin(), c.options.end(), option_name) != c.options.end();
}

std::string commandsTaking(const std::string& option_name) {
    std::vector<std::string> names;
    for (const Command& c : commands())
        if (applies(c, option_name)) names.push_back(c.name.empty() ? "the window" : c.name);
    return names.size() == commands().size() ? "all" : joined(names, ", ");
}

ConsoleOptions defaults() {
    ConsoleOptions o;
    o.db = defaultStorePath();
    o.out_dir = "scalebench-out";
    o.engine = defaultEnginePath();
    o.engine_sources = ownEngineSources();
    o.torch_python = defaultTorchPython();
    o.session_name = "imported";
    o.report_file = "report.html";
    return o;
}

} // namespace scalebench::console_cli
