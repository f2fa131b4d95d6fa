// Parsers of Slurm's command output (sbatch, squeue, sacct, scontrol, the job-completion log): pure
// functions.
#pragma once

#include "scheduler.h"

#include <string>
#include <vector>

namespace scalebench {

struct SlurmJobInfo {
    std::string id;
    JobState state = JobState::Pending;
    std::string slurm_state; // as Slurm wrote it, e.g. "CANCELLED by 1000"
    std::string reason;      // pending reason, e.g. "Resources", "Priority"
    std::string nodes;       // e.g. "node[1-2]"
    int exit_status = 0;     // from ExitCode N:S: N, or 128 + S when signal S ended it
    int restarts = 0;        // times Slurm started the job again (squeue's RestartCnt)
};

// A node as sinfo reports it: why it is down or drained.
struct SlurmNodeInfo {
    std::string name;
    std::string state;  // e.g. "idle", "down*", "drained"
    std::string reason; // e.g. "Not responding"
};

JobState slurmState(const std::string& state);
// Pending reasons that no amount of waiting cures (the job asks for more than the partition, account or QOS
// can ever give), as opposed to Resources, Priority, ReqNodeNotAvail, ...
bool isUnsatisfiableReason(const std::string& reason);
// "1234" or "1234;cluster" from `sbatch --parsable`; throws std::runtime_error on anything else.
std::string parseSbatchJobId(const std::string& output);
// The squeue command whose output parseSqueue reads, for the given job ids (comma-separated).
std::string squeueCommand(const std::string& job_ids);
// `squeue --noheader --states=all -O JobID:|,State:|,Reason:|,NodeList:|,RestartCnt:|`, and the older
// `--format=%i|%T|%r|%N` (no restart count).
std::vector<SlurmJobInfo> parseSqueue(const std::string& output);
// `sinfo --noheader --Node --format=%N|%T|%E`
std::vector<SlurmNodeInfo> parseSinfoNodes(const std::string& output);
// Down, drained or failing: the states of a node that ended its jobs.
bool isFailedNodeState(const std::string& state);
// `sacct --noheader --parsable2 --allocations --format=JobIDRaw,State,ExitCode,NodeList`
std::vector<SlurmJobInfo> parseSacct(const std::string& output);
// `scontrol --oneliner show job` (one job a line), and the lines of JobCompType=jobcomp/filetxt
std::vector<SlurmJobInfo> parseJobRecords(const std::string& output);
// `sinfo -h -o %P`: the partitions as listed, the default marked with '*'.
std::vector<std::string> parseSinfoPartitions(const std::string& output);
// `scontrol show partition NAME`: its State= (UP, DOWN, DRAIN, INACTIVE); "" where the output gives none (no
// such partition).
std::string partitionState(const std::string& output);
// `srun --mpi=list`: whether srun offers PMIx.
bool offersPmix(const std::string& output);

} // namespace scalebench
