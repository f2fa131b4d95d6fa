// The scalebench command line: the window by default, or a command (run PLAN, compare A B, add-clusters
// FILE, import FILE...). One table of options and one of commands give the parser, the checks and the help
// text.
#include "console_options.h"

#include "install_layout.h"
#include "local_engine.h"
#include "output_formats.h"
#include "system_limits.h"

#include <QCommandLineParser>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace scalebench {
namespace {

using Arguments = std::vector<std::string>;

// An option: how the help shows it, its default there, and what it sets (throwing std::invalid_argument on a
// bad value).
struct Option {
    std::string name;       // without dashes: "poll-ms"
    std::string value_name; // "MS"; empty for a switch
    std::string description;
    std::string (*shown_default)(const ConsoleOptions& defaults); // nullptr: none worth showing
    void (*take)(ConsoleOptions& o, const std::string& value);
    std::vector<std::string> aliases{}; // other names: "o" for -o
};

// A command: the word that names it, its arguments, what it does, the options that apply to it and what it
// sets from its arguments (throwing std::invalid_argument on a bad one). The window is the command without a
// word. A new command is one entry here (with its Mode) and its handler in app/main.cpp.
struct Command {
    std::string name; // "" for the window
    ConsoleOptions::Mode mode;
    std::vector<std::string> arguments; // "PLAN": shown in the help, and exactly this many are taken
    std::string summary;
    std::vector<std::string> options; // names in options()
    void (*take)(ConsoleOptions& o, const Arguments& arguments);
};

// The flag forms scheduled jobs still use: the flag's value is the command's first argument
// (--compare A B is compare A B).
struct OldForm {
    std::string flag;
    std::string command;
};

// "projection" is the Scaling tab on its Projection page.
const std::vector<std::string> tab_names = {"plan",      "runs",        "live",    "scaling", "projection",
                                            "breakdown", "collectives", "compare", "clusters"};

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
    std::string text;
    for (const auto& w : words)
        text += (text.empty() ? "" : separator) + w;
    return text;
}

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
             "the user's formats folder, or a definition file (docs/metric-stream.md)",
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
        {"ranks", "N", "processes of each imported run, where its log does not say",
         [](const O& d) { return std::to_string(d.ranks); },
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
         [](O& o, const Arguments& a) {
             if (o.format.empty()) throw std::invalid_argument("--format FORMAT: how the files read");
             o.import_files.assign(a.begin(), a.end());
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

const std::vector<OldForm> old_forms = {
    {"batch", "run"}, {"compare", "compare"}, {"add-clusters", "add-clusters"}};

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

// "the window" or "run", for the commands an option applies to.
std::string commandsTaking(const std::string& option_name) {
    std::vector<std::string> names;
    for (const Command& c : commands())
        if (applies(c, option_name)) names.push_back(c.name.empty() ? "the window" : c.name);
    return names.size() == commands().size() ? "all" : joined(names, ", ");
}

std::string helpFor(const std::string& command_name) {
    return command_name.empty() ? "scalebench --help" : "scalebench " + command_name + " --help";
}

// Edits (insert, delete, replace, swap two neighbours) from a to b: "bacth" is one from "batch".
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// "; did you mean --batch?" for a name a typo or two away from a known one (not for short names: "-x").
std::string nearest(const std::string& name, const std::vector<std::string>& known,
                    const std::string& prefix) {
    for (const auto& k : known)
        if (const std::size_t d = editDistance(name, k); d <= 2 && 3 * d <= name.size())
            return "; did you mean " + prefix + k + "?";
    return "";
}

// The unknown option as it was written ("-x", "--bacth"), without a value after '='.
std::string asGiven(const std::string& name, const Arguments& arguments) {
    for (const auto& a : arguments)
        if (const std::string flag = a.substr(0, a.find('=')); flag == "-" + name || flag == "--" + name)
            return flag;
    return "--" + name;
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

// Words filled into lines of `width`, the lines after the first indented by `indent`.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t first_column,
                    std::size_t width = 110) {
    std::istringstream words(text);
    std::string word, out;
    std::size_t column = first_column;
    bool line_start = true;
    while (words >> word) {
        if (!line_start && column + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
            line_start = true;
        }
        if (!line_start) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_start = false;
    }
    return out;
}

std::string usageLine(const Command& c) {
    std::string line = "scalebench";
    if (!c.name.empty()) line += " " + c.name;
    for (const auto& a : c.arguments)
        line += " " + a;
    for (const auto& name : c.options) {
        const Option& o = option(name);
        line += " [--" + name + (o.value_name.empty() ? "" : " " + o.value_name) + "]";
    }
    return line;
}

std::string optionLines(const std::vector<std::string>& names, bool show_commands) {
    const ConsoleOptions d = defaults();
    std::string text;
    for (const auto& name : names) {
        const Option& o = option(name);
        std::string left = "  --" + name + (o.value_name.empty() ? "" : " " + o.value_name);
        left.resize(std::max<std::size_t>(left.size() + 2, 24), ' ');
        std::string description = show_commands ? commandsTaking(name) + ": " + o.description : o.description;
        if (o.shown_default) description += " (default: " + o.shown_default(d) + ")";
        text += left + wrapped(description, 24, left.size()) + "\n";
    }
    return text;
}

std::string exitCodes() {
    return "Exit codes:\n"
           "  0    done (run: every run succeeded)\n"
           "  1    run: a run failed\n"
           "  2    the command line, the plan, the store or the cluster cannot be used\n"
           "  3    run: every run succeeded, but a figure failed its reference or regressed against the "
           "baseline\n"
           "  130  run: interrupted by SIGINT (Ctrl-C): the session's jobs cancelled and what they wrote "
           "stored;\n"
           "       a second interrupt leaves at once\n"
           "  143  run: interrupted by SIGTERM, likewise\n";
}

} // namespace

std::string consoleUsage(const std::string& command_name) {
    const Command* one = command_name.empty() ? nullptr : command(command_name);
    std::string text;
    if (one) {
        const auto old = std::find_if(old_forms.begin(), old_forms.end(),
                                      [&](const OldForm& f) { return f.command == one->name; });
        text += "usage: " + wrapped(usageLine(*one), 18, 7) + "\n";
        if (old != old_forms.end())
            text += "       (the older form --" + old->flag + " " + joined(one->arguments, " ") +
                    " still works)\n";
        std::string summary = one->summary;
        summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
        text += "\n" + wrapped(summary, 0, 0) + ".\n\nOptions:\n" + optionLines(one->options, false) +
                "  -h, --help            this help\n\n" + exitCodes() +
                "\nscalebench --help lists every command.\n";
        return text;
    }
    std::string prefix = "usage: ";
    for (const Command& c : commands()) {
        text += prefix + wrapped(usageLine(c), 18, 7) + "\n";
        prefix = "       ";
    }
    text += prefix + "scalebench --version\n" + prefix + "scalebench [COMMAND] --help\n\nCommands:\n";
    for (const Command& c : commands()) {
        std::string left =
            "  " + (c.name.empty() ? std::string("(none)") : c.name + " " + joined(c.arguments, " "));
        left.resize(std::max<std::size_t>(left.size() + 2, 22), ' ');
        text += left + wrapped(c.summary, 22, left.size()) + "\n";
    }
    std::vector<std::string> names;
    for (const Option& o : options())
        names.push_back(o.name);
    text += "\nOptions (the commands they apply to):\n" + optionLines(names, true) +
            "  --version             print the version and exit\n"
            "  -h, --help            this help; after a command, that command's help\n\n" +
            exitCodes() + "\nThe older forms still work:";
    for (const OldForm& f : old_forms)
        text += std::string(&f == &old_forms.front() ? " " : ", ") + "--" + f.flag + " " +
                joined(command(f.command)->arguments, " ") + " (" + f.command + ")";
    return text + ".\n";
}

std::string defaultEnginePath() {
    if (const auto self = runningExecutable(); !self.empty()) {
        for (const char* relative : {"../trainers/scalebench-engine", "scalebench-engine"}) {
            const auto candidate = self.parent_path() / relative;
            if (access(candidate.c_str(), X_OK) == 0)
                return std::filesystem::weakly_canonical(candidate).string();
        }
    }
    return "scalebench-engine";
}

std::filesystem::path windowRunsFolder(const std::filesystem::path& store) {
    std::error_code ignored;
    return std::filesystem::absolute(store, ignored).parent_path() / "runs";
}

std::filesystem::path defaultStorePath() {
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return std::filesystem::path(data) / "scalebench" / "sessions.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local/share/scalebench/sessions.db";
    return "scalebench-sessions.db";
}

namespace {

// Every option of the table, the old flag forms, --help and --version.
void declareOptions(QCommandLineParser& parser) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const Option& o : options()) {
        QStringList names{QString::fromStdString(o.name)};
        for (const auto& alias : o.aliases)
            names << QString::fromStdString(alias);
        parser.addOption(o.value_name.empty()
                             ? QCommandLineOption(names)
                             : QCommandLineOption(names, QString(), QString::fromStdString(o.value_name)));
    }
    for (const OldForm& f : old_forms)
        parser.addOption(
            QCommandLineOption(QString::fromStdString(f.flag), QString(), QStringLiteral("VALUE")));
    parser.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    parser.addOption(QCommandLineOption(QStringLiteral("version")));
}

// Parses the words; an unknown option is named with the nearest known one, other errors in Qt's words.
void parseWords(QCommandLineParser& parser, const std::vector<std::string>& arguments) {
    QStringList words{QStringLiteral("scalebench")}; // parse() skips the program's name
    for (const auto& a : arguments)
        words << QString::fromStdString(a);
    if (parser.parse(words)) return;
    if (!parser.unknownOptionNames().isEmpty()) {
        const std::string name = parser.unknownOptionNames().front().toStdString();
        std::vector<std::string> known{"help", "version"};
        for (const Option& o : options())
            known.push_back(o.name);
        for (const OldForm& f : old_forms)
            known.push_back(f.flag);
        throw ConsoleUsageError(
            "unknown option '" + asGiven(name, arguments) + "'" + nearest(name, known, "--"), helpFor(""));
    }
    std::string error = parser.errorText().toStdString(); // "Missing value after '--db'."
    if (!error.empty() && error.back() == '.') error.pop_back();
    if (!error.empty()) error[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(error[0])));
    throw ConsoleUsageError(error, helpFor(""));
}

// The command the words ask for, its arguments, and how the user wrote it ("run" or "--batch"; "" for the
// window).
struct ChosenCommand {
    const Command* command = nullptr;
    Arguments arguments;
    std::string shown;
};

// An old flag form, else the first word, else the window.
ChosenCommand chooseCommand(const QCommandLineParser& parser) {
    ChosenCommand chosen{command(""), {}, ""};
    for (const QString& p : parser.positionalArguments())
        chosen.arguments.push_back(p.toStdString());
    for (const OldForm& f : old_forms) {
        if (!parser.isSet(QString::fromStdString(f.flag))) continue;
        if (!chosen.shown.empty())
            throw ConsoleUsageError(chosen.shown + " and --" + f.flag + ": one command at a time",
                                    helpFor(""));
        chosen.command = command(f.command);
        chosen.shown = "--" + f.flag;
        chosen.arguments.insert(chosen.arguments.begin(),
                                parser.value(QString::fromStdString(f.flag)).toStdString());
    }
    if (!chosen.shown.empty() || chosen.arguments.empty()) return chosen;
    const std::string& word = chosen.arguments.front();
    chosen.command = command(word);
    if (!chosen.command || word.empty()) {
        std::vector<std::string> names;
        for (const Command& c : commands())
            if (!c.name.empty()) names.push_back(c.name);
        const bool plan_file = word.size() > 5 && word.substr(word.size() - 5) == ".toml";
        throw ConsoleUsageError(
            "unknown command '" + word + "' (commands: " + joined(names, ", ") + ")" +
                (plan_file ? "; to run a plan: scalebench run " + word : nearest(word, names, "")),
            helpFor(""));
    }
    chosen.shown = chosen.command->name;
    chosen.arguments.erase(chosen.arguments.begin());
    return chosen;
}

// The options given, each refused where the command does not take it or its value is bad.
void takeOptions(const QCommandLineParser& parser, const ChosenCommand& chosen, ConsoleOptions& o,
                 const std::string& help) {
    for (const Option& option : options()) {
        const QString name = QString::fromStdString(option.name);
        if (!parser.isSet(name)) continue;
        if (!applies(*chosen.command, option.name)) {
            const std::string where = commandsTaking(option.name);
            throw ConsoleUsageError(
                "--" + option.name + ": only " +
                    (where == "the window" ? "for the window (no command)" : "with " + where) +
                    (chosen.shown.empty() ? "" : ", not with " + chosen.shown),
                help);
        }
        try {
            // An empty path or name ("--out \"$DIR\"" with DIR unset) would mean the current folder or
            // nothing.
            if (!option.value_name.empty() && parser.value(name).isEmpty())
                throw std::invalid_argument("empty: give a " + option.value_name);
            if (parser.value(name).toStdString().size() > kMostPathBytes)
                throw std::invalid_argument("longer than any path or name (" +
                                            std::to_string(kMostPathBytes) + " bytes, PATH_MAX)");
            option.take(o, parser.value(name).toStdString());
        } catch (const std::invalid_argument& e) {
            throw ConsoleUsageError("--" + option.name + ": " + e.what(), help);
        }
    }
}

// The command's positional arguments: as many as it takes, each checked by the command.
void takeArguments(const ChosenCommand& chosen, ConsoleOptions& o, const std::string& help) {
    const Command& c = *chosen.command;
    const Arguments& rest = chosen.arguments;
    if (rest.size() < c.arguments.size())
        throw ConsoleUsageError(chosen.shown + ": missing " + c.arguments[rest.size()] + " (" + chosen.shown +
                                    " " + joined(c.arguments, " ") + ")",
                                help);
    // "FILE...": one or more.
    const bool many = !c.arguments.empty() && c.arguments.back().ends_with("...");
    if (rest.size() > c.arguments.size() && !many)
        throw ConsoleUsageError((chosen.shown.empty() ? "" : chosen.shown + ": ") + "unexpected argument '" +
                                    rest[c.arguments.size()] + "'",
                                help);
    if (!c.take) return;
    try {
        c.take(o, rest);
    } catch (const std::invalid_argument& e) {
        throw ConsoleUsageError(chosen.shown + ": " + e.what(), help);
    }
}

} // namespace

ConsoleOptions parseConsoleOptions(const std::vector<std::string>& arguments) {
    QCommandLineParser parser;
    declareOptions(parser);
    parseWords(parser, arguments);
    const ChosenCommand chosen = chooseCommand(parser);
    const std::string help = helpFor(chosen.command->name);

    ConsoleOptions o = defaults();
    if (parser.isSet(QStringLiteral("help"))) {
        o.mode = ConsoleOptions::Mode::Help;
        o.help_command = chosen.command->name;
        return o;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        o.mode = ConsoleOptions::Mode::Version;
        return o;
    }
    o.mode = chosen.command->mode;
    takeOptions(parser, chosen, o, help);
    takeArguments(chosen, o, help);
    // The window's runs go beside its store, wherever the window was started; a command's where it is run.
    if (o.mode == ConsoleOptions::Mode::Gui) o.out_dir = windowRunsFolder(o.db);
    if (o.check && (!o.dry_run || o.cluster.empty()))
        throw ConsoleUsageError("--check: only with --dry-run --cluster NAME", help);
    return o;
}

} // namespace scalebench
