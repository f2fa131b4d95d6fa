// The session runner's observer, in core's types only: the window's side includes it without remote's
// headers.
#pragma once

#include "job_status.h"
#include "metric_record.h"
#include "run_plan.h"
#include "run_status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace scalebench {

// What a window follows while a session runs. Called on the thread that runs the session; every call has a
// default that does nothing.
class SessionEvents {
  public:
    struct SubmittedRun {
        std::int64_t run_id = 0;
        RunSpec spec{};
        std::string job_id;
        std::string run_dir; // on the scheduler's machine: stdout.log, stderr.log, metrics.jsonl
    };
    virtual ~SessionEvents() = default;
    virtual void sessionStarted(std::int64_t /*session_id*/, const std::vector<RunSpec>& /*runs*/) {}
    virtual void runSubmitted(const SubmittedRun& /*run*/) {}
    // The scheduler's view of a run changed: its state, why it waits, where it runs.
    virtual void runStateChanged(std::int64_t /*run_id*/, const JobStatus& /*status*/) {}
    // Records already stored, in stream order.
    virtual void recordsStored(std::int64_t /*run_id*/, const std::vector<MetricRecord>& /*records*/) {}
    // The scheduler started the run again as `attempt` (its earlier attempt's records left the store).
    virtual void runRestarted(std::int64_t /*run_id*/, int /*attempt*/, const std::string& /*cause*/) {}
    // status as stored: ok, failed or cancelled.
    virtual void runFinished(std::int64_t /*run_id*/, RunStatus /*status*/, const std::string& /*error*/) {}
};

} // namespace scalebench
