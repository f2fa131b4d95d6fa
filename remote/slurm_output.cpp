// Parsers of Slurm's command output (sbatch, squeue, sacct, scontrol, the job-completion log): pure
// functions.
#include "slurm_output.h"

#include <charconv>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace scalebench {
namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") != std::string::npos) out.push_back(line);
    }
    return out;
}

std::vector<std::string> fields(const std::string& line, char separator) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    for (std::string::size_type end; (end = line.find(separator, start)) != std::string::npos;
         start = end + 1)
        out.push_back(line.substr(start, end - start));
    out.push_back(line.substr(start));
    return out;
}

// A count as Slurm prints it: decimal digits that fit an int; nullopt for anything else.
std::optional<int> count(std::string_view text) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || text.front() == '-' || error != std::errc() || stop != end) return std::nullopt;
    return value;
}

// ExitCode "N:S" (N the exit code 0-255, S the signal 0-127; "N" alone in old logs): "0:0" -> 0, "2:0" -> 2,
// "0:9" -> 137; left blank, 0 (the state alone says how the job ended). Throws std::runtime_error naming
// `what` (the command and job) for anything else.
int exitStatus(const std::string& exit_code, const std::string& what) {
    if (exit_code.empty()) return 0;
    const auto colon = exit_code.find(':');
    const std::string_view text(exit_code);
    const auto status = count(text.substr(0, colon));
    const auto signal = colon == std::string::npos ? std::optional<int>(0) : count(text.substr(colon + 1));
    if (!status || !signal || *status > 255 || *signal > 127)
        throw std::runtime_error(what + " has ExitCode '" + exit_code +
                                 "', not EXIT:SIGNAL (0-255:0-127) as Slurm writes it");
    return *signal ? 128 + *signal : *status;
}

SlurmJobInfo info(std::string id, const std::string& state, std::string reason, std::string nodes) {
    if (nodes == "(null)" || nodes == "None assigned") nodes.clear();
    if (reason == "None" || reason == "(null)") reason.clear();
    return {std::move(id), slurmState(state), state, std::move(reason), std::move(nodes), 0};
}

} // namespace

JobState slurmState(const std::string& state) {
    const std::string word = state.substr(0, state.find(' ')); // "CANCELLED by 0" -> "CANCELLED"
    static const std::map<std::string, JobState> states = {
        {"PENDING", JobState::Pending},      {"CONFIGURING", JobState::Pending},
        {"RUNNING", JobState::Running},      {"COMPLETING", JobState::Running},
        {"SUSPENDED", JobState::Running},    {"STOPPED", JobState::Running},
        {"RESIZING", JobState::Running},     {"SIGNALING", JobState::Running},
        {"STAGE_OUT", JobState::Running},    {"REQUEUED", JobState::Requeued},
        {"REQUEUE_FED", JobState::Requeued}, {"REQUEUE_HOLD", JobState::Requeued},
        {"COMPLETED", JobState::Completed},  {"FAILED", JobState::Failed},
        {"SPECIAL_EXIT", JobState::Failed},  {"BOOT_FAIL", JobState::NodeFail},
        {"NODE_FAIL", JobState::NodeFail},   {"CANCELLED", JobState::Cancelled},
        {"REVOKED", JobState::Cancelled},    {"TIMEOUT", JobState::Timeout},
        {"DEADLINE", JobState::Timeout},     {"OUT_OF_MEMORY", JobState::OutOfMemory},
        {"PREEMPTED", JobState::Preempted},
    };
    auto it = states.find(word);
    return it == states.end() ? JobState::Failed : it->second; // an unknown state is not success
}

bool isUnsatisfiableReason(const std::string& reason) {
    static const char* const kNever[] = {"PartitionNodeLimit",   "PartitionConfig",
                                         "PartitionTimeLimit",   "BadConstraints",
                                         "AccountNotAllowed",    "InvalidAccount",
                                         "InvalidQOS",           "QOSMaxNodePerJobLimit",
                                         "QOSMaxCpuPerJobLimit", "QOSMaxWallDurationPerJobLimit",
                                         "QOSMaxGRESPerJob",     "DependencyNeverSatisfied"};
    for (const char* r : kNever)
        if (reason == r) return true;
    return false;
}

// Sample (sbatch --parsable): "4242\n", or "4242;cluster2\n" on a federation
std::string parseSbatchJobId(const std::string& output) {
    const auto all = lines(output);
    if (all.empty()) throw std::runtime_error("sbatch printed no job id");
    const std::string id = all.back().substr(0, all.back().find(';'));
    if (id.empty() || id.find_first_not_of("0123456789_") != std::string::npos)
        throw std::runtime_error("sbatch printed '" + all.back() + "' where a job id belongs");
    return id;
}

// Sample (squeue --noheader --states=all --format=%i|%T|%r|%N):
//   17|RUNNING|None|node[1-2]
//   18|PENDING|Resources|
//   or (-O JobID:|,State:|,Reason:|,NodeList:|,RestartCnt:|): a requeued job, waiting out its BeginTime:
//   1|PENDING|BeginTime||1|
std::string squeueCommand(const std::string& job_ids) {
    return "squeue --noheader --states=all -O 'JobID:|,State:|,Reason:|,NodeList:|,RestartCnt:|' --jobs=" +
           job_ids;
}

std::vector<SlurmJobInfo> parseSqueue(const std::string& output) {
    std::vector<SlurmJobInfo> jobs;
    for (const auto& line : lines(output)) {
        const auto f = fields(line, '|');
        if (f.size() < 4) continue;
        SlurmJobInfo job = info(f[0], f[1], f[2], f[3]);
        if (f.size() >= 5 && !f[4].empty()) { // RestartCnt: the older format has none
            const auto restarts = count(f[4]);
            if (!restarts)
                throw std::runtime_error("squeue: job " + f[0] + " has RestartCnt '" + f[4] +
                                         "', not a count");
            job.restarts = *restarts;
        }
        jobs.push_back(job);
    }
    return jobs;
}

// Sample (sinfo --noheader --Node --format=%N|%T|%E):
//   node1|down*|Not responding
//   node2|idle|none
std::vector<SlurmNodeInfo> parseSinfoNodes(const std::string& output) {
    std::vector<SlurmNodeInfo> nodes;
    for (const auto& line : lines(output)) {
        const auto f = fields(line, '|');
        if (f.size() < 3) continue;
        nodes.push_back({f[0], f[1], f[2] == "none" ? "" : f[2]});
    }
    return nodes;
}

bool isFailedNodeState(const std::string& state) {
    for (const char* word : {"down", "drain", "fail", "no_respond"})
        if (state.find(word) != std::string::npos) return true;
    return !state.empty() && state.back() == '*'; // not responding
}

// Sample (sacct --noheader --parsable2 --allocations --format=JobIDRaw,State,ExitCode,NodeList):
//   17|COMPLETED|0:0|node[1-2]
//   19|CANCELLED by 0|0:15|node1
std::vector<SlurmJobInfo> parseSacct(const std::string& output) {
    std::vector<SlurmJobInfo> jobs;
    for (const auto& line : lines(output)) {
        const auto f = fields(line, '|');
        if (f.size() < 4 || f[0].find('.') != std::string::npos) continue; // steps: 17.batch, 17.0
        SlurmJobInfo job = info(f[0], f[1], "", f[3]);
        job.exit_status = exitStatus(f[2], "sacct: job " + f[0]);
        jobs.push_back(job);
    }
    return jobs;
}

// Sample (scontrol --oneliner show job; the jobcomp/filetxt log has the same key=value shape):
//   JobId=17 JobName=resnet20-n2 UserId=sbtest(1001) ... JobState=FAILED Reason=NonZeroExitCode ...
//   ExitCode=1:0
//   ... NodeList=node[1-2] ...
std::vector<SlurmJobInfo> parseJobRecords(const std::string& output) {
    std::vector<SlurmJobInfo> jobs;
    for (const auto& line : lines(output)) {
        std::map<std::string, std::string> values;
        for (const auto& token : fields(line, ' ')) {
            const auto eq = token.find('=');
            if (eq != std::string::npos && eq > 0) values.emplace(token.substr(0, eq), token.substr(eq + 1));
        }
        if (!values.contains("JobId") || !values.contains("JobState")) continue;
        SlurmJobInfo job = info(values["JobId"], values["JobState"], values["Reason"], values["NodeList"]);
        // No ExitCode (a job record of an older jobcomp log): the state alone says how it ended.
        if (values.contains("ExitCode"))
            job.exit_status = exitStatus(values["ExitCode"], "job record " + values["JobId"]);
        jobs.push_back(job);
    }
    return jobs;
}

std::vector<std::string> parseSinfoPartitions(const std::string& output) {
    std::vector<std::string> partitions;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) partitions.push_back(line);
    return partitions;
}

std::string partitionState(const std::string& output) {
    std::smatch state;
    return std::regex_search(output, state, std::regex(R"(State=(\S+))")) ? std::string(state[1]) : "";
}

bool offersPmix(const std::string& output) {
    return output.find("pmix") != std::string::npos;
}

} // namespace scalebench
