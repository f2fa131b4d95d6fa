// Runs the scalebench executable as a user would, with its output kept in a test's folder: to the end
// (runConsole), or a --batch followed while it runs (RunningBatch).
#pragma once

#include "child_process.h"
#include "file_text.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <thread>
#include <vector>

struct ConsoleRun {
    int exit_status = 0;
    std::string out;
    std::string err;
    std::string printed() const { return out + err; }
};

inline ConsoleRun runConsole(const TemporaryFolder& folder, const std::vector<std::string>& arguments) {
    std::vector<std::string> argv = {SCALEBENCH_CLI_PATH};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    scalebench::ChildProcess cli(argv, (folder.path / "out.log").string(),
                                 (folder.path / "err.log").string());
    const int status = cli.wait().status;
    return {status, fileText(folder.path / "out.log"), fileText(folder.path / "err.log")};
}

// scalebench with these arguments (a --batch of one run into the store `db`), started in the background and
// followed until `steps` of its run's steps are stored. A test that fails half-way leaves no job behind:
// stop() (also on destruction) asks the console to cancel it with one SIGTERM.
class RunningBatch {
  public:
    RunningBatch(const TemporaryFolder& folder, const std::vector<std::string>& arguments,
                 std::filesystem::path store, std::int64_t steps, std::chrono::seconds timeout)
        : db(std::move(store)), out_log((folder.path / "out.log").string()),
          err_log((folder.path / "err.log").string()) {
        std::vector<std::string> argv = {SCALEBENCH_CLI_PATH};
        argv.insert(argv.end(), arguments.begin(), arguments.end());
        cli = std::make_unique<scalebench::ChildProcess>(argv, out_log, err_log);
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (stored < steps) {
            INFO(printed());
            REQUIRE(std::chrono::steady_clock::now() < deadline);
            REQUIRE_FALSE(cli->poll().exited);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!std::filesystem::exists(db)) continue;
            scalebench::SessionStore sessions(db);
            for (const auto& session : sessions.sessions())
                for (const auto& run : sessions.runs(session.id)) {
                    stored = run.step_count;
                    run_dir = run.run_dir;
                    job_id = run.job_id;
                }
        }
    }
    ~RunningBatch() { stop(); }
    RunningBatch(const RunningBatch&) = delete;
    RunningBatch& operator=(const RunningBatch&) = delete;

    void stop() {
        if (cli && !cli->poll().exited) {
            ::kill(cli->pid(), SIGTERM);
            cli->wait();
        }
    }
    std::string printed() const { return fileText(out_log) + fileText(err_log); }

    std::filesystem::path db;
    std::string out_log, err_log;
    std::unique_ptr<scalebench::ChildProcess> cli;
    std::int64_t stored = 0;
    std::string run_dir, job_id; // of the run, as last read from the store
};
