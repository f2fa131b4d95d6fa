// Where a run and a session stand: one enum each, and one word each as the store keeps it and people read it.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

namespace scalebench {

// A run of a session. Adding a state: one enumerator and its row in kRunStatusWords (run_status.cpp).
enum class RunStatus {
    Pending,   // created, not started: waiting for its turn or its job
    Running,   // started: its job runs or waits in the scheduler's queue
    Ok,        // ended and its records read
    Failed,    // ended with an error (the engine's, the job's, or its records')
    Cancelled, // stopped by the user
    Abandoned, // its console went away; found and ended at a later start
    // An imported run whose own log says how it ended badly (MLPerf's MLLOG): its records are read, and it
    // counts as a failed run of its result.
    Aborted, // the log's run_stop status is "aborted" (the target not reached, or the trainer gave up)
    Cut      // the log ends after run_start, before run_stop: the run's end is not in it
};

// A session. Orphaned: its console went away while it ran and a later start has said so.
enum class SessionStatus { Running, Orphaned, Ok, Failed, Cancelled, Abandoned };

// The word the store, the CSV and the JUnit file keep: "pending", "running", "ok", "failed", ...
std::string_view storedWord(RunStatus status);
std::string_view storedWord(SessionStatus status);
// The word the window shows: a run that ended well is "done", the others their stored word.
std::string_view shownWord(RunStatus status);
// The status a stored word names; none for a word this version does not know.
std::optional<RunStatus> runStatusNamed(std::string_view word);
std::optional<SessionStatus> sessionStatusNamed(std::string_view word);

// Ended: it will not change again (ok, failed, cancelled, abandoned, aborted, cut).
bool hasEnded(RunStatus status);
// Ended without its result: failed, or its log says aborted or cut (shown as a failure).
bool endedBadly(RunStatus status);

// For test failures and messages: the stored word.
std::ostream& operator<<(std::ostream& out, RunStatus status);
std::ostream& operator<<(std::ostream& out, SessionStatus status);

} // namespace scalebench
