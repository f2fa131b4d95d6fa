// Runs an expanded plan through a Scheduler, streaming each run's metric file into the session store as it grows.
#pragma once

#include "run_plan.h"
#include "scheduler.h"
#include "session_store.h"
#include "transport.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace scalebench {

struct SessionRunnerSettings {
    std::string engine;            // scalebench-engine as the scheduler's machine sees it
    std::filesystem::path out_dir; // run folders go to out_dir/session-ID/RUN/
    std::chrono::milliseconds poll_interval{250};
    std::string cluster = "local";
};

struct SessionOutcome {
    std::int64_t session_id = 0;
    int runs = 0;
    int failed_runs = 0;
};

class SessionRunner {
  public:
    using Progress = std::function<void(const std::string& line)>;

    SessionRunner(SessionStore& store, Scheduler& scheduler, Transport& transport, SessionRunnerSettings settings,
                  Progress progress);

    // Runs every run one after the other (they would disturb each other's timings); a failed run does not stop
    // the others. Every record is stored as it arrives.
    SessionOutcome run(const RunPlan& plan);

  private:
    bool runOne(std::int64_t session_id, const RunSpec& spec, int index, int total);

    SessionStore& store_;
    Scheduler& scheduler_;
    Transport& transport_;
    SessionRunnerSettings settings_;
    Progress progress_;
};

} // namespace scalebench
