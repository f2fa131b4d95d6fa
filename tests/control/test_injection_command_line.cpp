// Injection through the command line: hostile text in the paths and names scalebench run takes (--out,
// --db, --engine, --cluster) is refused, or names exactly that file; and a few payloads through the real
// console and the real mpirun (the sweep: injection_sweep.h).
//
// The command line's fields, and where each goes:
//   --out           run folders (mkdir -p, mkdir), results.csv
//   --db            the store's file
//   --cluster       an SQL lookup
//   --engine        the program every rank runs (mpirun's argv)
#include "console_options.h"
#include "console_run.h"
#include "injection_sweep.h"
#include "job_preview.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <QString>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace scalebench;
using namespace scalebench::injection;
namespace fs = std::filesystem;

TEST_CASE("every payload in the command line's paths and names is refused, or names exactly that file",
          "[integration]") {
    const RunPlan plan = parsePlanText(planWith("steps = 1").first, "sweep.toml");
    for (const auto& p : payloads()) {
        for (const std::string option : {"out", "db", "engine", "cluster"}) {
            INFO("--" << option << " " << p.label);
            const std::string field = "--" + option;
            if (p.text.find('\0') != std::string::npos) {
                note(p, field, "unreachable", "a program's arguments are C strings: no NUL reaches them");
                continue;
            }
            ConsoleOptions o;
            try {
                o = parseConsoleOptions({"run", "plan.toml", "--" + option, p.text});
            } catch (const ConsoleUsageError& e) {
                CHECK(std::string(e.what()).find(option) != std::string::npos);
                note(p, field, "refused", e.what());
                continue;
            }
            const std::string value = option == "out"      ? o.out_dir.string()
                                      : option == "db"     ? o.db.string()
                                      : option == "engine" ? o.engine
                                                           : o.cluster;
            if (value != p.text) {
                // Qt reads the command line as UTF-8: bytes that are not become U+FFFD.
                CHECK_FALSE(QString::fromStdString(p.text).toStdString() == p.text);
                note(p, field, "altered",
                     "read by Qt as UTF-8: invalid bytes become U+FFFD (another name, "
                     "in the same folder)");
                continue;
            }
            std::string how;
            bool intact = true;
            if (option == "out" || option == "engine") {
                // As localSite() takes them where the console runs: the sessions' root absolute, the engine
                // absolute where it is a path.
                const fs::path out = sandbox().home() / (option == "out" ? placed(value) : "../out");
                std::string engine = (sandbox().bin() / "engine").string();
                if (option == "engine") {
                    ShadowedCommands in_home;
                    engine = localEnginePath(placed(value));
                }
                const LocalLaunch here = launchHere(plan, out, engine);
                std::string outside;
                for (const auto& path : here.escaped)
                    outside += "\noutside: " + path;
                INFO(here.row.error << outside);
                const auto workload = std::find(here.argv.begin(), here.argv.end(), "--workload");
                const std::string program =
                    workload == here.argv.begin() || workload == here.argv.end() ? "(none)" : *(workload - 1);
                const std::string& expected = engine;
                CHECK(program == expected);
                CHECK(here.replayed == here.argv);
                CHECK(here.escaped.empty());
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = program == expected && here.replayed == here.argv && here.escaped.empty();
                how = option == "out"
                          ? "the run's folder made under it by sh (mkdir, quoted), mpirun started "
                            "there; no file outside it, no canary"
                          : "mpirun's program, one word (the stored command replayed by sh too)";
                if (!here.row.error.empty()) how += "; the run failed with: " + here.row.error;
            } else if (option == "db") {
                ShadowedCommands shadowed;
                const auto before = sandbox().tree();
                const fs::path file = placed(value);
                std::string error;
                try {
                    if (file.has_parent_path()) fs::create_directories(file.parent_path());
                    SessionStore store(file);
                    store.createSession(p.text, p.text, p.text);
                } catch (const std::exception& e) {
                    error = e.what();
                }
                const auto escaped = escapedPaths(before, {fs::absolute(file).parent_path()});
                CHECK(escaped.empty());
                intact = escaped.empty();
                removeNew(before);
                how = error.empty() ? "the store made at exactly that path" : "refused by SQLite: " + error;
            } else {
                SessionStore& store = sweepStore().store;
                const auto names = store.clusterNames();
                // The cluster sweep kept clusters under some of these names ("-rf", "."): found by exactly
                // that name.
                const auto found = store.cluster(value);
                CHECK((!found || found->name == value));
                CHECK(store.clusterNames() == names);
                intact = (!found || found->name == value) && store.clusterNames() == names;
                how = "an SQL parameter: the cluster of exactly that name or none, the clusters table "
                      "unchanged";
            }
            note(p, field, intact ? "quoted" : "BROKEN", how);
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}

TEST_CASE(
    "payloads in a plan's name, data_dir, env and --out reach the program as written through scalebench run",
    "[integration]") {
    // The real console and the real mpirun; the program every rank runs is a recorder (--engine).
    for (const std::string label : {"command substitution", "backticks", "IFS", "single quote break",
                                    "double quote break", "SQL drop", "Slurm filename patterns"}) {
        const Payload& p = *std::find_if(payloads().begin(), payloads().end(),
                                         [&](const Payload& x) { return x.label == label; });
        INFO(p.label);
        TemporaryFolder folder;
        sandbox().forget();
        const auto before = sandbox().tree();
        const fs::path out = sandbox().folder.path / ("out " + p.text.substr(0, 20));
        const std::string data_dir = "data " + p.text;
        const std::string env_value = p.text;
        std::ofstream(folder.path / "plan.toml")
            << "name = " << tomlString("e2e " + p.text) << "\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\n"
            << "data_dir = " << tomlString(data_dir) << "\nenv = { INJECTED = " << tomlString(env_value)
            << " }\n";
        setenv("SCALEBENCH_RECORDS", sandbox().records().c_str(), 1);
        const ConsoleRun run =
            runConsole(folder, {"run", (folder.path / "plan.toml").string(), "--out", out.string(), "--db",
                                (folder.path / "s.db").string(), "--engine",
                                (sandbox().bin() / "engine").string(), "--poll-ms", "20"});
        INFO(run.printed());
        CHECK(run.exit_status == 0);
        const auto argv = sandbox().argv("engine").value_or(std::vector<std::string>{});
        CHECK(after(argv, "--data-dir") == std::string(SCALEBENCH_DATA_ROOT) + "/" + data_dir);
        CHECK(sandbox().variable("engine", "INJECTED") == env_value);
        CHECK_FALSE(fs::exists(sandbox().canary()));
        const auto escaped = escapedPaths(before, {out});
        CHECK(escaped.empty());
        SessionStore store(folder.path / "s.db");
        CHECK(store.sessions().at(0).name == "e2e " + p.text);
        const bool intact = run.exit_status == 0 &&
                            after(argv, "--data-dir") == std::string(SCALEBENCH_DATA_ROOT) + "/" + data_dir &&
                            sandbox().variable("engine", "INJECTED") == env_value &&
                            !fs::exists(sandbox().canary()) && escaped.empty() &&
                            store.sessions().at(0).name == "e2e " + p.text;
        for (const std::string field : {"plan name", "plan data_dir", "plan env value", "--out"})
            note(
                p, "scalebench run: " + field, intact ? "quoted" : "BROKEN",
                "the real console and mpirun; the rank's argv and environment as written, the session's name "
                "stored as written, files only under --out");
    }
}
