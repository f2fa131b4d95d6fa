// LocalScheduler: each job is `mpirun -np N` on this machine, followed through its process.
#pragma once

#include "child_process.h"
#include "scheduler.h"

#include <memory>

namespace scalebench {

class LocalScheduler final : public Scheduler {
  public:
    std::string submit(const JobRequest& job) override;
    std::map<std::string, JobStatus> poll(const std::vector<std::string>& job_ids) override;
    void cancel(const std::string& job_id) override;
    std::string commandLine(const JobRequest& job) const override;
    ClusterSettings machine() const override { return localMachine(); }

    std::vector<std::string> mpirunArguments(const JobRequest& job) const;

  private:
    struct Job {
        std::unique_ptr<ChildProcess> process;
        std::string run_dir;
        bool cancelled = false;
    };
    std::map<std::string, Job> jobs_; // by id (mpirun's PID); dropping one stops its process group
};

} // namespace scalebench
