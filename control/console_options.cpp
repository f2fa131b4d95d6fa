// The scalebench command line: the GUI by default, or --batch PLAN for headless runs.
#include "console_options.h"

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace scalebench {

std::string consoleUsage() {
    return "usage: scalebench [--db FILE]                       open the console on the session store\n"
           "       scalebench --batch PLAN [--cluster NAME] [--db FILE] [--out DIR] [--engine PATH] "
           "[--dry-run [--check]]\n"
           "                  [--poll-ms MS] [--engine-sources DIR]\n"
           "       scalebench --add-clusters FILE [--db FILE]     keep the [[cluster]] tables of FILE in the "
           "store\n"
           "       scalebench --compare A B [--db FILE]          every figure of session A against session "
           "B, "
           "and the\n"
           "                                                      settings that differ (what the Compare tab "
           "shows)\n"
           "       scalebench [--db FILE] --tab TAB [--screenshot PNG]   open on a tab: plan, runs, live, "
           "scaling, "
           "breakdown,\n"
           "                                                      collectives, compare, clusters\n"
           "       scalebench --version\n"
           "--batch runs every run of the plan on this machine with mpirun (or, with --cluster, as Slurm "
           "jobs over\n"
           "SSH after deploying the engine there), stores the session as records arrive, prints the results "
           "table,\n"
           "writes DIR/results.csv and DIR/scaling.png, and exits 1 if a run failed, 2 if the plan, the "
           "cluster or\n"
           "the store cannot be used.\n"
           "--dry-run prints what --batch would run: each run's mpirun line, or with --cluster each run's\n"
           "sbatch script and the engine's deployment, connecting to nothing; --check then connects and\n"
           "checks what the runs and the engine's build need there (exit 2 naming what is missing).\n";
}

std::string defaultEnginePath() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        for (const char* relative : {"../trainers/scalebench-engine", "scalebench-engine"}) {
            const auto candidate = self.parent_path() / relative;
            if (access(candidate.c_str(), X_OK) == 0)
                return std::filesystem::weakly_canonical(candidate).string();
        }
    }
    return "scalebench-engine";
}

std::filesystem::path defaultStorePath() {
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return std::filesystem::path(data) / "scalebench" / "sessions.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local/share/scalebench/sessions.db";
    return "scalebench-sessions.db";
}

ConsoleOptions parseConsoleOptions(const std::vector<std::string>& arguments) {
    ConsoleOptions o;
    o.db = defaultStorePath();
    o.out_dir = "scalebench-out";
    o.engine = defaultEnginePath();
    o.engine_sources = SCALEBENCH_SOURCE_DIR;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= arguments.size()) throw std::invalid_argument(a + ": needs a value");
            return arguments[++i];
        };
        if (a == "--batch") {
            o.mode = ConsoleOptions::Mode::Batch;
            o.plan = value();
        } else if (a == "--cluster") {
            o.cluster = value();
        } else if (a == "--add-clusters") {
            o.mode = ConsoleOptions::Mode::AddClusters;
            o.cluster_file = value();
        } else if (a == "--engine-sources") {
            o.engine_sources = value();
        } else if (a == "--db") {
            o.db = value();
        } else if (a == "--out") {
            o.out_dir = value();
        } else if (a == "--engine") {
            o.engine = value();
        } else if (a == "--screenshot") {
            o.screenshot = value();
        } else if (a == "--compare") {
            o.mode = ConsoleOptions::Mode::Compare;
            for (std::int64_t* id : {&o.compare_a, &o.compare_b}) {
                const std::string v = value();
                try {
                    *id = std::stoll(v);
                } catch (const std::exception&) {
                    throw std::invalid_argument("--compare: '" + v + "' is not a session id");
                }
            }
        } else if (a == "--tab") {
            o.tab = value();
        } else if (a == "--dry-run") {
            o.dry_run = true;
        } else if (a == "--check") {
            o.check = true;
        } else if (a == "--poll-ms") {
            const std::string v = value();
            try {
                o.poll_ms = std::stoi(v);
            } catch (const std::exception&) {
                throw std::invalid_argument("--poll-ms: '" + v + "' is not a number");
            }
            if (o.poll_ms < 10) throw std::invalid_argument("--poll-ms: at least 10");
        } else if (a == "--version") {
            o.mode = ConsoleOptions::Mode::Version;
        } else if (a == "--help" || a == "-h") {
            o.mode = ConsoleOptions::Mode::Help;
        } else {
            throw std::invalid_argument("unknown option '" + a + "'");
        }
    }
    if (o.dry_run && o.mode != ConsoleOptions::Mode::Batch)
        throw std::invalid_argument("--dry-run: only with --batch PLAN");
    if (o.check && (!o.dry_run || o.cluster.empty()))
        throw std::invalid_argument("--check: only with --dry-run --cluster NAME");
    if (!o.tab.empty() && o.mode != ConsoleOptions::Mode::Gui)
        throw std::invalid_argument("--tab: only for the window");
    if (!o.cluster.empty() && o.mode != ConsoleOptions::Mode::Batch)
        throw std::invalid_argument("--cluster: only with --batch PLAN");
    return o;
}

} // namespace scalebench
