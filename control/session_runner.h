// Runs an expanded plan through a Scheduler, streaming each run's metric file into the session store as it
// grows.
#pragma once

#include "job_request.h"
#include "metric_file_tail.h"
#include "run_folder.h"
#include "run_plan.h"
#include "run_status.h"
#include "scheduler.h"
#include "session_events.h"
#include "stored_rows.h"
#include "transport.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

struct SessionRunnerSettings {
    // Where the runs go (job_request.h): the machine (this one, or a cluster whose settings are stored with
    // each session), the engine as that machine sees it and the sessions' root (run folders are
    // runFolder(sessions_root, ...), run_folder.h). Its `session` is each session's own: the runner sets it.
    LaunchSite where{localMachine(), "", "", {}};
    std::chrono::milliseconds poll_interval{250};
    int max_concurrent_runs =
        1; // 1 on this machine (runs would disturb each other's timings); many on a cluster
};

struct SessionOutcome {
    std::int64_t session_id = 0;
    int runs = 0;
    int failed_runs = 0;    // ended without the user asking: failed, or cancelled by someone else
    int cancelled_runs = 0; // cancelled at the user's request (requestCancel, requestCancelAll)
    bool cancelled = false; // requestCancelAll() was called: the session is stored as cancelled
    SessionStatus status = SessionStatus::Running; // ok, failed or cancelled once it ended
};

class SessionRunner {
  public:
    using Progress = std::function<void(const std::string& line)>;

    SessionRunner(SessionStore& store, Scheduler& scheduler, Transport& transport,
                  SessionRunnerSettings settings, Progress progress);

    // Submits the runs, at most max_concurrent_runs at a time, and follows all of them with one scheduler
    // query per poll. A failed run does not stop the others. Every record is stored as it arrives.
    SessionOutcome run(const RunPlan& plan);
    // The same for chosen runs of the plan (a resubmission of some of its runs).
    SessionOutcome run(const RunPlan& plan, const std::vector<RunSpec>& runs);

    // Observed from now on; not owned, must outlive run().
    void setEvents(SessionEvents* events) { events_ = events; }
    // Thread-safe: cancels the submitted run's job at the next poll (its records so far stay stored).
    void requestCancel(std::int64_t run_id);
    // Thread-safe: cancels every run, submitted or not.
    void requestCancelAll();

  private:
    struct ActiveRun {
        RunSpec spec;
        std::string tag; // "[run 2/4] name", for progress lines
        std::int64_t run_id = 0;
        std::string job_id;
        std::string run_dir;
        std::string output;         // the file the job writes in each attempt's folder (JobRequest::output)
        int attempt = 0;            // the scheduler's attempt whose metric file `tail` follows
        std::int64_t last_step = 0; // of that attempt, as stored
        std::int64_t steps = 0; // the steps it trains: the plan's, then its header's (epochs become steps)
        std::int64_t collectives = 0; // message sizes stored (a sweep's, or nccl-tests' and OSU's rows)
        std::unique_ptr<MetricFileTail> tail;
        std::vector<std::string> rank_errors;
        std::string pending_reason;
        JobStatus last_status{};
        bool cancel_sent = false;
        std::optional<SummaryRecord> summary;          // the run's own, as stored
        std::optional<DeviceCheckRecord> device_check; // a plan's check_device: the verdict, as stored
    };
    static constexpr int kMaxLostPolls = 10;

    // Submits one run; nullopt when it could not be started (stored as failed, with the reason).
    std::optional<ActiveRun> start(const SessionFolderKey& session, const RunSpec& spec, int index,
                                   int total);
    void restart(ActiveRun& run, const JobStatus& status);
    // One poll: every active run's job state (one scheduler query) and new records; finished runs leave
    // `active`.
    void follow(std::vector<ActiveRun>& active, SessionOutcome& outcome);
    void store(ActiveRun& run, const std::vector<MetricRecord>& records);
    // How a finished run ended: a run the user cancelled (requestCancel, requestCancelAll) has not failed.
    enum class Ending { Ok, CancelledByUser, Failed };
    Ending finish(ActiveRun& run, const JobStatus& status);
    // A plan's `mllog = true`: the engine's MLPerf log read back as any MLLOG run's, its time to train and
    // status added to the run's summary beside the engine's own figures.
    void readMllog(ActiveRun& run);
    void sendCancellations(std::vector<ActiveRun>& active);
    bool cancelRequested(std::int64_t run_id);

    SessionStore& store_;
    Scheduler& scheduler_;
    Transport& transport_;
    SessionRunnerSettings settings_;
    Progress progress_;
    SessionEvents no_events_;
    SessionEvents* events_ = &no_events_;
    std::mutex cancel_mutex_;
    std::set<std::int64_t> cancel_requests_; // run ids
    bool cancel_all_ = false;
};

} // namespace scalebench
