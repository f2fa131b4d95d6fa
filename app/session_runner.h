// Runs an expanded plan through a Scheduler, streaming each run's metric file into the session store as it
// grows.
#pragma once

#include "metric_file_tail.h"
#include "run_plan.h"
#include "scheduler.h"
#include "session_store.h"
#include "transport.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace scalebench {

struct SessionRunnerSettings {
    std::string engine;            // scalebench-engine as the scheduler's machine sees it
    std::filesystem::path out_dir; // run folders go to out_dir/session-ID/RUN/
    std::chrono::milliseconds poll_interval{250};
    std::string cluster = "local";
    int max_concurrent_runs =
        1; // 1 on this machine (runs would disturb each other's timings); many on a cluster
    std::string cluster_json{}; // the cluster's settings, recorded with the session
};

struct SessionOutcome {
    std::int64_t session_id = 0;
    int runs = 0;
    int failed_runs = 0;
};

class SessionRunner {
  public:
    using Progress = std::function<void(const std::string& line)>;

    SessionRunner(SessionStore& store, Scheduler& scheduler, Transport& transport,
                  SessionRunnerSettings settings, Progress progress);

    // Submits the runs, at most max_concurrent_runs at a time, and follows all of them with one scheduler
    // query per poll. A failed run does not stop the others. Every record is stored as it arrives.
    SessionOutcome run(const RunPlan& plan);

  private:
    struct ActiveRun {
        RunSpec spec;
        std::string tag; // "[run 2/4] name", for progress lines
        std::int64_t run_id = 0;
        std::string job_id;
        std::unique_ptr<MetricFileTail> tail;
        std::vector<std::string> rank_errors;
        std::string pending_reason;
    };
    static constexpr int kMaxLostPolls = 10;

    ActiveRun start(std::int64_t session_id, const RunSpec& spec, int index, int total);
    // One poll: every active run's job state (one scheduler query) and new records; finished runs leave
    // `active`.
    void follow(std::vector<ActiveRun>& active, SessionOutcome& outcome);
    void store(ActiveRun& run, const std::vector<MetricRecord>& records);
    bool finish(ActiveRun& run, const JobStatus& status);

    SessionStore& store_;
    Scheduler& scheduler_;
    Transport& transport_;
    SessionRunnerSettings settings_;
    Progress progress_;
};

} // namespace scalebench
