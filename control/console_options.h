// The scalebench command line: the GUI by default, or --batch PLAN for headless runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scalebench {

struct ConsoleOptions {
    enum class Mode { Gui, Batch, AddClusters, Compare, Version, Help } mode = Mode::Gui;
    std::filesystem::path plan;
    std::filesystem::path cluster_file;        // --add-clusters: [[cluster]] tables to keep in the store
    std::string cluster;                       // --cluster NAME: run the plan there over SSH and Slurm
    std::filesystem::path db;                  // the session store
    std::filesystem::path out_dir;             // run folders, results.csv, scaling.png
    std::string engine;                        // the scalebench-engine executable (this machine)
    std::filesystem::path engine_sources;      // what is deployed to a cluster: this repository
    std::filesystem::path screenshot;          // GUI: save the main window to this PNG and quit
    std::int64_t compare_a = 0, compare_b = 0; // --compare A B: two stored sessions, A the reference
    std::string tab;                           // GUI: open on this tab (runs, live, scaling, ...)
    bool dry_run = false;                      // batch: print the runs and their commands, run nothing
    // Dry run on a cluster: connect and check what the runs and the engine's build need there.
    bool check = false;
    int poll_ms = 250;
};

// Throws std::invalid_argument naming the option and the problem.
ConsoleOptions parseConsoleOptions(const std::vector<std::string>& arguments);
std::string consoleUsage();
// The engine beside this executable in the build tree, else "scalebench-engine" from PATH.
std::string defaultEnginePath();
std::filesystem::path defaultStorePath();

} // namespace scalebench
