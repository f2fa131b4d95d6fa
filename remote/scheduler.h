// Scheduler: how runs become jobs (local mpirun, later Slurm): submit, follow all jobs with one query, cancel.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace scalebench {

enum class JobState { Pending, Running, Completed, Failed, Cancelled };
const char* toString(JobState state);
inline bool isFinal(JobState s) { return s == JobState::Completed || s == JobState::Failed || s == JobState::Cancelled; }

struct JobStatus {
    JobState state = JobState::Pending;
    int exit_status = 0;
    std::string detail; // why it failed: the last lines of its error output
};

// One run, ready to launch: ranks of a program writing into run_dir.
struct JobRequest {
    std::string name;
    int ranks = 1;
    std::vector<std::string> program; // the engine and its arguments
    std::string run_dir;              // stdout.log and stderr.log go here
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
