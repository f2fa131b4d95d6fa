// SlurmScheduler: one sbatch job per run, all jobs followed with one squeue call per poll, final states from
// sacct where accounting exists, else from scontrol.
#pragma once

#include "cluster_settings.h"
#include "scheduler.h"
#include "slurm_output.h"
#include "transport.h"

#include <map>

namespace scalebench {

class SlurmScheduler final : public Scheduler {
  public:
    SlurmScheduler(Transport& transport, ClusterSettings cluster);

    std::string submit(const JobRequest& job) override;
    std::map<std::string, JobStatus> poll(const std::vector<std::string>& job_ids) override;
    void cancel(const std::string& job_id) override;
    // The rendered sbatch script: what reproduces the run.
    std::string commandLine(const JobRequest& job) const override;
    ClusterSettings machine() const override { return cluster_; }

    // Scheduler commands run so far (a poll of any number of running jobs costs one).
    int commandsRun() const { return commands_; }

  private:
    CommandResult run(const std::string& command);
    std::vector<SlurmJobInfo> finishedJobs(const std::vector<std::string>& ids);
    std::string errorTail(const std::string& job_id);
    // Why a job's last attempt on `nodes` ended: NODE_FAIL on the nodes Slurm marks down, or a requeue.
    std::string requeueCause(const std::string& nodes);

    struct Attempts {
        int count = 0;     // restarts seen
        std::string cause; // why the last attempt ended
        std::string nodes; // where the current attempt runs (or ran)
    };
    std::map<std::string, Attempts> attempts_; // by job id

    Transport& transport_;
    ClusterSettings cluster_;
    std::map<std::string, std::string> run_dirs_; // job id -> run folder
    bool has_accounting_ = true;                  // until sacct says otherwise
    int commands_ = 0;
};

} // namespace scalebench
