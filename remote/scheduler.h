// Scheduler: where jobs run (this machine's mpirun, Slurm): submit a JobRequest (core/plans/job_request.h),
// follow all jobs with one query, cancel.
#pragma once

#include "cluster_settings.h"
#include "job_request.h"
#include "job_status.h"

#include <map>
#include <string>
#include <vector>

namespace scalebench {

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
    // Where its jobs run: the cluster's settings, or localMachine(). jobRequestFor() packs ranks for it.
    virtual ClusterSettings machine() const = 0;
};

} // namespace scalebench
