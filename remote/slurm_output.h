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
};

JobState slurmState(const std::string& state);
// Pending reasons that no amount of waiting cures (the job asks for more than the partition, account or QOS
// can ever give), as opposed to Resources, Priority, ReqNodeNotAvail, ...
bool isUnsatisfiableReason(const std::string& reason);
// "1234" or "1234;cluster" from `sbatch --parsable`; throws std::runtime_error on anything else.
std::string parseSbatchJobId(const std::string& output);
// `squeue --noheader --states=all --format=%i|%T|%r|%N`
std::vector<SlurmJobInfo> parseSqueue(const std::string& output);
// `sacct --noheader --parsable2 --allocations --format=JobIDRaw,State,ExitCode,NodeList`
std::vector<SlurmJobInfo> parseSacct(const std::string& output);
// `scontrol --oneliner show job` (one job a line), and the lines of JobCompType=jobcomp/filetxt
std::vector<SlurmJobInfo> parseJobRecords(const std::string& output);

} // namespace scalebench
