// Scheduler: how runs become jobs (local mpirun, later Slurm): submit, follow all jobs with one query,
// cancel.
#pragma once

#include <map>
#include <string>
#include <vector>

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
    // or waiting, 0 for the first. Each attempt runs in its own folder (JobRequest).
    int attempt = 0;
    std::string requeue_cause{}; // why the last attempt ended: NODE_FAIL on n2, PREEMPTED, ...
};

// One run, ready to launch: ranks of a program writing into run_dir. Each attempt of the job (Slurm starts a
// requeued job again) runs in its own new folder attemptFolder(run_dir, K) (run_folder.h), which the job
// creates and never reuses: relative paths in `program` (its metric file) are relative to it.
struct JobRequest {
    std::string name;
    int ranks = 1;
    std::vector<std::string> program;                 // the engine and its arguments
    std::string run_dir;                              // stdout.log and stderr.log go here
    int ranks_per_node = 0;                           // 0: the scheduler's default packing
    std::map<std::string, std::string> environment{}; // the plan's `env`, exported to every rank
    int threads_per_rank = 0;                         // the engine's intra-op threads (0: cores / ranks)
};

class Scheduler {
  public:
    virtual ~Scheduler() = default;
    // Returns the job's id.
    virtual std::string submit(const JobRequest& job) = 0;
    // The states of all these jobs, from one query.
    virtual std::map<std::string, JobStatus> poll(const std::vector<std::string>& job_ids) = 0;
    virtual void cancel(const std::string& job_id) = 0;
    // The command line a job runs, as the user would type it (stored with the run to reproduce it).
    virtual std::string commandLine(const JobRequest& job) const = 0;
};

} // namespace scalebench
