// SlurmScheduler: one sbatch job per run, all jobs followed with one squeue call per poll, final states from
// sacct where accounting exists, else from scontrol.
#include "slurm_scheduler.h"

#include "scratch_folder.h"
#include "shell_words.h"
#include "slurm_job_script.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <set>

namespace scalebench {
namespace {
std::string joinIds(const std::vector<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) {
        if (!out.empty()) out += ',';
        out += id;
    }
    return out;
}

// A name for one submission's record in the run folder, unique to this submit() call.
std::string submissionMark() {
    std::random_device random;
    return fmt::format(".sbatch-{:08x}{:08x}", random(), random());
}

// sbatch at most once, however often the connection drops under it, and its answer never lost: the first try
// takes the submission's mark in the run folder (mkdir is atomic) and records sbatch's output and exit status
// there; a try after a drop finds the mark and reads the record, waiting (60 s at most) for the first try,
// which runs on without its connection, to finish.
std::string submissionCommand(const std::string& run_dir, const std::string& mark) {
    return fmt::format(
        "cd {0} && if mkdir {1} 2>/dev/null; then sbatch --parsable job.sbatch >{1}/out 2>{1}/err; "
        "echo $? >{1}/status.next && mv {1}/status.next {1}/status; fi; i=0; "
        "while [ ! -f {1}/status ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; "
        "[ -f {1}/status ] || {{ echo 'sbatch gave no answer in 60 s' >&2; exit 254; }}; "
        "cat {1}/err >&2; cat {1}/out; exit $(cat {1}/status)",
        shellQuote(run_dir), mark);
}
} // namespace

SlurmScheduler::SlurmScheduler(Transport& transport, ClusterSettings cluster)
    : transport_(transport), cluster_(std::move(cluster)) {}

CommandResult SlurmScheduler::run(const std::string& command) {
    ++commands_;
    return transport_.run(command);
}

std::string SlurmScheduler::commandLine(const JobRequest& job) const {
    return renderSbatchScript(cluster_, job);
}

std::string SlurmScheduler::submit(const JobRequest& job) {
    const std::string script_path = job.run_dir + "/job.sbatch";
    const ScratchFolder scratch("scalebench-sbatch");
    const auto local = scratch.path() / "job.sbatch";
    std::ofstream(local) << commandLine(job);
    const CommandResult mkdir =
        repeatedOnDrop([&] { return transport_.run("mkdir -p " + shellQuote(job.run_dir)); });
    if (mkdir.exit_status != 0)
        throw TransportError("cannot create " + job.run_dir + " on " + transport_.describe() + ": " +
                             mkdir.err);
    repeatedOnDrop([&] { transport_.upload(local, script_path); });
    const std::string command = submissionCommand(job.run_dir, submissionMark());
    const CommandResult r = repeatedOnDrop([&] { return run(command); });
    if (r.exit_status != 0) {
        std::string why = "sbatch refused " + job.name + " on " + transport_.describe() + ": " + r.err;
        // "sbatch: error: Batch job submission failed: Requested node configuration is not available": no
        // node has what the job asks for, most often more GPUs than the nodes have.
        if (job.gpus_per_node > 0 && r.err.find("node configuration is not available") != std::string::npos) {
            while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back())))
                why.pop_back();
            why += " (no node has what the job asks for: " + std::to_string(job.gpus_per_node) +
                   " GPU(s) and " + std::to_string(job.ranks_per_node) + " task(s) per node; cluster '" +
                   cluster_.name + "' is set to " + std::to_string(cluster_.gpus_per_node) +
                   " GPU(s) per node, gpus_per_node)";
        }
        throw TransportError(why);
    }
    const std::string id = parseSbatchJobId(r.out);
    run_dirs_[id] = job.run_dir;
    return id;
}

std::vector<SlurmJobInfo> SlurmScheduler::finishedJobs(const std::vector<std::string>& ids) {
    if (has_accounting_) {
        const CommandResult r = run("sacct --noheader --parsable2 --allocations --jobs=" + joinIds(ids) +
                                    " --format=JobIDRaw,State,ExitCode,NodeList");
        if (r.exit_status == 0) return parseSacct(r.out);
        has_accounting_ = false; // "Slurm accounting storage is disabled": ask scontrol from now on
    }
    std::vector<SlurmJobInfo> jobs = parseJobRecords(run("scontrol --oneliner show job").out);
    if (cluster_.jobcomp_log.empty()) return jobs;
    // scontrol forgets a job MinJobAge after it ends; the job-completion log keeps it.
    std::set<std::string> known;
    for (const auto& j : jobs)
        known.insert(j.id);
    if (std::all_of(ids.begin(), ids.end(), [&](const std::string& id) { return known.contains(id); }))
        return jobs;
    for (const auto& j : parseJobRecords(run("tail -n 10000 " + shellQuote(cluster_.jobcomp_log)).out))
        if (!known.contains(j.id))
            jobs.push_back(j); // a requeued job's later line comes later and wins below
    return jobs;
}

std::string SlurmScheduler::requeueCause(const std::string& nodes) {
    if (nodes.empty()) return "a requeue";
    const CommandResult r =
        run("sinfo --noheader --Node --nodes=" + shellQuote(nodes) + " --format='%N|%T|%E'");
    std::string failed;
    for (const auto& node : parseSinfoNodes(r.out))
        if (isFailedNodeState(node.state))
            failed += (failed.empty() ? "" : ", ") + node.name +
                      (node.reason.empty() ? "" : " (" + node.state + ": " + node.reason + ")");
    return failed.empty() ? "a requeue on " + nodes + " (preemption or scontrol requeue; no node failed)"
                          : "NODE_FAIL on " + failed;
}

std::string SlurmScheduler::errorTail(const std::string& job_id) {
    auto it = run_dirs_.find(job_id);
    if (it == run_dirs_.end()) return "";
    return transport_.run("tail -n 12 " + shellQuote(it->second + "/stderr.log")).out;
}

std::map<std::string, JobStatus> SlurmScheduler::poll(const std::vector<std::string>& job_ids) {
    std::map<std::string, JobStatus> states;
    if (job_ids.empty()) return states;
    const CommandResult q = run(squeueCommand(joinIds(job_ids)));
    std::set<std::string> wanted(job_ids.begin(), job_ids.end());
    std::vector<SlurmJobInfo> seen = q.exit_status == 0 ? parseSqueue(q.out) : std::vector<SlurmJobInfo>{};
    std::vector<std::string> missing;
    std::set<std::string> found;
    for (const auto& j : seen)
        found.insert(j.id);
    for (const auto& id : job_ids)
        if (!found.contains(id)) missing.push_back(id);
    // squeue forgets jobs MinJobAge after they end, and gives no exit code: ask for the final states.
    std::vector<SlurmJobInfo> finished;
    for (const auto& j : seen)
        if (isFinal(j.state)) finished.push_back(j);
    if (!missing.empty() || !finished.empty()) {
        std::vector<std::string> ask = missing;
        for (const auto& j : finished)
            ask.push_back(j.id);
        for (const auto& j : finishedJobs(ask))
            seen.push_back(j); // later entries win below
    }
    for (const auto& j : seen) {
        if (!wanted.contains(j.id)) continue;
        JobStatus s{j.state, j.exit_status, "", j.reason, j.nodes};
        Attempts& attempts = attempts_[j.id];
        if (j.restarts > attempts.count) {
            // Slurm started the job again: say why the last attempt ended (its nodes' state), once.
            attempts.count = j.restarts;
            attempts.cause = requeueCause(attempts.nodes);
        }
        if (j.state == JobState::Running && !j.nodes.empty()) attempts.nodes = j.nodes;
        s.attempt = attempts.count;
        s.requeue_cause = attempts.cause;
        states[j.id] = s;
    }
    for (const auto& id : job_ids) {
        auto it = states.find(id);
        if (it != states.end() && it->second.state == JobState::Pending &&
            isUnsatisfiableReason(it->second.reason)) {
            // It would wait forever: say so now, and free the queue.
            run("scancel " + shellQuote(id));
            it->second.state = JobState::Failed;
            it->second.detail =
                "job " + id + " can never start on this cluster (Slurm's reason: " + it->second.reason +
                "): it asks for more nodes, time or resources than the " + "partition, account or QOS allow";
            continue;
        }
        if (it == states.end()) {
            states[id] = {JobState::Failed, 0,
                          "job " + id + " is known to neither squeue, sacct nor scontrol", "", ""};
        } else if (isFinal(it->second.state) && it->second.state != JobState::Completed) {
            it->second.detail = errorTail(id);
        }
    }
    return states;
}

void SlurmScheduler::cancel(const std::string& job_id) {
    const CommandResult r = run("scancel " + shellQuote(job_id));
    if (r.exit_status != 0) throw TransportError("scancel " + job_id + " failed: " + r.err);
}

} // namespace scalebench
