// The scalebench command line: the window by default, or a command (run PLAN, compare A B, report SESSION,
// project SESSION, add-clusters FILE, import FILE...).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalebench {

struct ConsoleOptions {
    enum class Mode {
        Gui,
        Batch,
        AddClusters,
        Delete,
        Compare,
        Import,
        Report,
        Project,
        Version,
        Help
    } mode = Mode::Gui;
    std::filesystem::path plan;
    std::filesystem::path cluster_file;        // add-clusters: [[cluster]] tables to keep in the store
    std::string cluster;                       // --cluster NAME: run the plan there over SSH and Slurm
    std::filesystem::path db;                  // the session store
    std::filesystem::path out_dir;             // run folders, results.csv, scaling.png
    std::string engine;                        // the scalebench-engine executable (this machine)
    std::filesystem::path engine_sources;      // what is deployed to a cluster (or built here on first use)
    std::string torch_python;                  // run: the Python whose torch the engine is built against here
    std::filesystem::path screenshot;          // GUI: save the main window to this PNG and quit
    std::int64_t compare_a = 0, compare_b = 0; // compare A B: two stored sessions, A the reference
    std::string report_session;        // report SESSION, project SESSION: a stored session's id or name
    std::filesystem::path report_file; // report: the HTML page to write
    std::string tab;                   // GUI: open on this tab (runs, live, scaling, ...)
    bool dry_run = false;              // run: print the runs and their commands, run nothing
    // Dry run on a cluster: connect and check what the runs and the engine's build need there.
    bool check = false;
    int poll_ms = 250;
    // Which steps the throughput figures are read from: "median" (the steady-state steps) or "last-step"
    // (MaxText's convention, seed 003).
    std::string step_time = "median";
    std::string help_command; // Help: the command whose help was asked for ("run"), empty for all of it
    // import FILE...: logs of runs that already happened, read in `format` into one stored session.
    std::vector<std::filesystem::path> import_files{};
    std::string format;          // import: how the files read (kOutputFormats)
    std::string session_name;    // import: the session's name
    int ranks = 0;               // import: processes of each run, where its log does not say; 0: not given
    double peak_tflops = 0;      // import: one device's peak, for the MFU of a trainer that prints TFLOP/s
    std::string baseline;        // run, report: a stored session's id or name, or "last"; "": none
    std::filesystem::path junit; // run: JUnit XML of the runs and verdicts
    // project SESSION: the rank counts to predict, weak scaling or a fixed global batch (0: weak), samples to
    // train (0: no time to train) and the price of a GPU-hour (0: no cost; none given: the price of the
    // session's cluster) in a currency (empty: the cluster's).
    std::vector<int> project_ranks{8, 64, 512, 2048};
    std::filesystem::path project_inputs; // project FILE.toml: stated inputs instead of a stored session
    int global_batch = 0;
    int ranks_per_node = 0; // project: where node boundaries lie in the prediction (0: as the session ran)
    double samples_to_train = 0;
    std::optional<double> price_per_gpu_hour{};
    std::string currency{};

    bool operator==(const ConsoleOptions&) const = default;
};

// A command line that cannot be used; help_command is the help to point the user at ("scalebench run
// --help").
struct ConsoleUsageError : std::invalid_argument {
    ConsoleUsageError(const std::string& what, std::string help)
        : std::invalid_argument(what), help_command(help) {}
    std::string help_command;
};

// Throws ConsoleUsageError (a std::invalid_argument) naming the option, command or argument and the problem.
ConsoleOptions parseConsoleOptions(const std::vector<std::string>& arguments);
// The help of one command ("run"), or with none every command, option (with its default) and exit code.
std::string consoleUsage(const std::string& command = {});
// The engine beside this executable (the build tree's, or a bin/ one), else "scalebench-engine" from PATH
// (built on first use where PATH has none: local_engine.h).
std::string defaultEnginePath();
std::filesystem::path defaultStorePath();
// Where the window's runs go without --out: runs/ in the store's folder (absolute), not the folder the window
// was started in.
std::filesystem::path windowRunsFolder(const std::filesystem::path& store);

} // namespace scalebench
