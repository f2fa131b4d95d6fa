// LocalScheduler: each job is `mpirun -np N` on this machine, followed through its process.
#include "local_scheduler.h"

#include "local_mpirun_arguments.h"
#include "run_folder.h"
#include "shell_words.h"
#include "transport.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace scalebench {

namespace {
constexpr std::size_t kDetailLines = 12;

// The last lines of a job's error output that say something (mpirun's banners of dashes are dropped).
std::string errorTail(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of("- \t") != std::string::npos) lines.push_back(line);
    std::string out;
    for (std::size_t i = lines.size() > kDetailLines ? lines.size() - kDetailLines : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : "\n") + lines[i];
    return out;
}

} // namespace

std::vector<std::string> LocalScheduler::mpirunArguments(const JobRequest& job) const {
    return localMpirunArguments(job);
}

std::string LocalScheduler::commandLine(const JobRequest& job) const {
    // A command's standard output goes to its output file in the attempt's folder, where mpirun starts.
    return shellJoin(mpirunArguments(job)) + (job.output_from_stdout ? " > " + shellQuote(job.output) : "");
}

std::string LocalScheduler::submit(const JobRequest& job) {
    std::vector<std::string> environment;
    if (geteuid() == 0) environment = {"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};
    // Jobs here run once: attempt 0, in a folder of its own.
    const std::string attempt = attemptFolder(job.run_dir, 0);
    std::error_code error;
    if (!std::filesystem::create_directory(attempt, error))
        throw TransportError("cannot start " + job.name + ": its folder " + attempt +
                             (error ? " cannot be made: " + error.message()
                                    : " exists already (another run's files are there)"));
    const std::string stdout_path =
        job.output_from_stdout ? attempt + "/" + job.output : job.run_dir + "/stdout.log";
    auto process = std::make_unique<ChildProcess>(mpirunArguments(job), stdout_path,
                                                  job.run_dir + "/stderr.log", environment, attempt);
    const std::string id = std::to_string(process->pid());
    jobs_[id] = {std::move(process), job.run_dir, false};
    return id;
}

std::map<std::string, JobStatus> LocalScheduler::poll(const std::vector<std::string>& job_ids) {
    std::map<std::string, JobStatus> states;
    for (const auto& id : job_ids) {
        auto it = jobs_.find(id);
        if (it == jobs_.end()) throw TransportError("no local job " + id);
        const ChildExit exit = it->second.process->poll();
        JobStatus s;
        s.exit_status = exit.status;
        if (!exit.exited) {
            s.state = JobState::Running;
        } else if (it->second.cancelled) {
            s.state = JobState::Cancelled;
        } else if (exit.status == 0) {
            s.state = JobState::Completed;
        } else {
            s.state = JobState::Failed;
            s.detail = errorTail(it->second.run_dir + "/stderr.log");
            if (s.detail.empty()) s.detail = "mpirun exited with status " + std::to_string(exit.status);
        }
        states[id] = s;
    }
    return states;
}

void LocalScheduler::cancel(const std::string& job_id) {
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return;
    it->second.cancelled = true;
    it->second.process->terminate();
}

} // namespace scalebench
