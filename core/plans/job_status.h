// Where a job stands, as a scheduler reports it: its state, why it waits, where it runs, which attempt.
#pragma once

#include <string>

namespace scalebench {

// Slurm's distinct endings are kept apart: a timeout or a node failure is not the engine's fault.
enum class JobState {
    Pending,
    Running,
    Requeued,
    Completed,
    Failed,
    Cancelled,
    Timeout,
    NodeFail,
    OutOfMemory,
    Preempted
};
const char* toString(JobState state);
inline bool isFinal(JobState s) {
    return s != JobState::Pending && s != JobState::Running && s != JobState::Requeued;
}

struct JobStatus {
    JobState state = JobState::Pending;
    int exit_status = 0;
    std::string detail; // why it failed: the last lines of its error output
    std::string reason; // why it waits (Slurm's pending reason), when it does
    std::string nodes;  // where it runs or ran
    // Slurm started the job again (a requeue after a node failure or a preemption): the attempt now running
    // or waiting, 0 for the first. Each attempt runs in its own folder (attemptFolder, run_folder.h).
    int attempt = 0;
    std::string requeue_cause{}; // why the last attempt ended: NODE_FAIL on n2, PREEMPTED, ...
};

} // namespace scalebench
