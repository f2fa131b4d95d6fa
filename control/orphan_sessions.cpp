// Sessions left `running` by a console that ended without finishing them: found at the next start and
// resolved, so that no session stays `running` forever.
#include "orphan_sessions.h"

#include "local_transport.h"
#include "metric_file_tail.h"
#include "output_formats.h"
#include "run_folder.h"
#include "run_output.h"
#include "session_store.h"

#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <thread>
#include <unistd.h>

namespace scalebench {
namespace {

std::string thisHost() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

// The command line of a live process ("" when it has ended, zombies included).
std::string liveCommand(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos || close + 2 >= text.size() || text[close + 2] == 'Z') return "";
    std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
    std::string command((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    return command.empty() ? "?" : command;
}

bool ownerIsGone(const SessionRow& session) {
    const auto colon = session.owner.rfind(':');
    if (colon == std::string::npos) return true;                    // started before owners were recorded
    if (session.owner.substr(0, colon) != thisHost()) return false; // another machine's: cannot tell
    const pid_t pid = std::stoi(session.owner.substr(colon + 1));
    return pid != getpid() && liveCommand(pid).empty();
}

bool unfinished(const RunRow& run) {
    return run.status == RunStatus::Running || run.status == RunStatus::Pending;
}

// Stops a leftover mpirun of a local run (its process group: mpirun and the ranks), if it still runs and is
// mpirun (a PID can be reused). Returns what was done, for the message.
std::string stopLocalJob(const std::string& job_id) {
    if (job_id.empty()) return "never started";
    const pid_t pid = std::stoi(job_id);
    const std::string command = liveCommand(pid);
    if (command.rfind("mpirun", 0) != 0 && command.find("/mpirun") == std::string::npos)
        return "mpirun " + job_id + " had ended";
    ::kill(-pid, SIGTERM);
    for (int i = 0; i < 50 && !liveCommand(pid).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!liveCommand(pid).empty()) ::kill(-pid, SIGKILL);
    return "mpirun " + job_id + " was still running: stopped";
}

// What collecting a run's output again gave: the steps stored, and how it was read where the plan did not
// say.
struct Collected {
    std::int64_t steps = 0;
    std::string how; // "" where the stored plan says how its output reads
};

// Reads the run's output again from the start and stores all of it, from where and in the format its record
// says (an engine's metric stream or a command's own format). A run without a record (stored before records,
// its plan no longer reading) is read as an engine run's metric stream, and that is said.
Collected collect(SessionStore& store, const SessionRow& session, const RunRow& run, Transport& transport) {
    if (run.run_dir.empty()) return {};
    const RunSpec spec = run.spec.value_or(RunSpec{});
    MetricFileTail tail(transport, metricFile(run.run_dir, run.attempt, outputFileOf(spec)),
                        outputReaderOf(spec));
    store.replaceRecords(run.id, tail.finish());
    const std::string why = !run.spec_problem.empty()              ? run.spec_problem
                            : !session.stored_plan.problem.empty() ? session.stored_plan.problem
                                                                   : "the run has no record of its settings";
    return {static_cast<std::int64_t>(store.steps(run.id).size()),
            run.spec ? "" : " (read as an engine run's metric stream: " + why + ")"};
}

std::string ownerText(const SessionRow& session) {
    return session.owner.empty() ? "an older scalebench" : session.owner;
}

// The run's records collected again from its metric file, and the run stored as abandoned, saying what became
// of its job; returns the steps collected.
std::int64_t abandon(SessionStore& store, const SessionRow& session, const RunRow& run, Transport& transport,
                     const std::string& job) {
    const Collected collected = collect(store, session, run, transport);
    store.finishRun(run.id,
                    {RunStatus::Abandoned,
                     fmt::format("the console following it ({}) ended first; {}; {} step(s) collected "
                                 "afterwards from its metric file{}",
                                 ownerText(session), job, collected.steps, collected.how),
                     0, run.nodes});
    return collected.steps;
}

} // namespace

std::vector<SessionRow> orphanedSessions(const SessionStore& store) {
    std::vector<SessionRow> orphans;
    for (const auto& session : store.unfinishedSessions())
        if (ownerIsGone(session)) orphans.push_back(session);
    return orphans;
}

std::vector<std::string> resolveOrphans(SessionStore& store) {
    std::vector<std::string> lines;
    LocalTransport local;
    for (const auto& session : orphanedSessions(store)) {
        if (session.cluster != kLocalClusterName) {
            if (session.status == SessionStatus::Orphaned) continue; // already said
            store.finishSession(session.id, SessionStatus::Orphaned);
            lines.push_back(
                fmt::format("session {} on {} was left running by a console that ended ({}); it is "
                            "resolved the next time scalebench connects to {}",
                            session.id, session.cluster, ownerText(session), session.cluster));
            continue;
        }
        std::int64_t steps = 0;
        for (const auto& run : store.runs(session.id)) {
            if (!unfinished(run)) continue;
            steps += abandon(store, session, run, local, stopLocalJob(run.job_id));
        }
        store.finishSession(session.id, SessionStatus::Abandoned);
        lines.push_back(fmt::format("session {} was left running by a console that ended ({}): its jobs are "
                                    "stopped, {} step(s) collected, stored as abandoned",
                                    session.id, ownerText(session), steps));
    }
    return lines;
}

std::vector<std::string> resolveOrphansOnCluster(SessionStore& store, const std::string& cluster,
                                                 Transport& transport, Scheduler& scheduler) {
    std::vector<std::string> lines;
    for (const auto& session : orphanedSessions(store)) {
        if (session.cluster != cluster) continue;
        std::vector<RunRow> runs;
        std::vector<std::string> job_ids;
        for (const auto& run : store.runs(session.id))
            if (unfinished(run)) {
                runs.push_back(run);
                if (!run.job_id.empty()) job_ids.push_back(run.job_id);
            }
        const auto states = scheduler.poll(job_ids);
        std::int64_t steps = 0;
        for (const auto& run : runs) {
            std::string job = "never submitted";
            if (!run.job_id.empty()) {
                const JobStatus& status = states.at(run.job_id);
                if (isFinal(status.state)) {
                    job = fmt::format("job {} had ended: {}", run.job_id, toString(status.state));
                } else {
                    scheduler.cancel(run.job_id);
                    job = fmt::format("job {} was still {}: cancelled", run.job_id, toString(status.state));
                }
            }
            steps += abandon(store, session, run, transport, job);
        }
        store.finishSession(session.id, SessionStatus::Abandoned);
        lines.push_back(
            fmt::format("session {} on {} was left running by a console that ended ({}): its jobs "
                        "are asked about and ended, {} step(s) collected, stored as abandoned",
                        session.id, cluster, ownerText(session), steps));
    }
    return lines;
}

} // namespace scalebench
