// Deploys the engine to a cluster: its sources packed, uploaded to a folder named by their content hash,
// built there once by a Slurm job against the cluster's LibTorch and MPI, and reused by every later run with
// the same hash.
#include "engine_deployment.h"

#include "local_transport.h"
#include "scratch_folder.h"
#include "shell_words.h"

#include <optional>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

namespace scalebench {

EngineDeployment::EngineDeployment(Transport& cluster, Scheduler& scheduler, ClusterSettings settings,
                                   std::filesystem::path source_dir)
    : cluster_(cluster), scheduler_(scheduler), settings_(std::move(settings)),
      source_dir_(std::move(source_dir)) {}

std::pair<std::string, std::filesystem::path>
EngineDeployment::pack(const std::filesystem::path& work_dir) const {
    const auto archive = work_dir / "engine-sources.tar.gz";
    LocalTransport local;
    // Sorted names, zero times and owners, gzip without a time stamp: the same sources give the same bytes.
    const CommandResult tar = local.run(
        "tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --exclude='*.o' -C " +
        shellQuote(source_dir_.string()) + " -cf - CMakeLists.txt cmake protocol trainers | gzip -n > " +
        shellQuote(archive.string()) + " && sha256sum " + shellQuote(archive.string()));
    if (tar.exit_status != 0) throw TransportError("cannot pack the engine's sources: " + tar.err);
    return {tar.out.substr(0, 16), archive};
}

std::string deployedEngine(const std::string& remote_root, const std::string& hash) {
    return remote_root + "/engine/" + hash + "/src/build/release/trainers/scalebench-engine";
}

EngineBuildPlan EngineDeployment::plan(const std::filesystem::path& work_dir) const {
    EngineBuildPlan plan;
    std::tie(plan.target.hash, plan.archive) = pack(work_dir);
    plan.target.folder = settings_.remote_root + "/engine/" + plan.target.hash;
    plan.target.engine = deployedEngine(settings_.remote_root, plan.target.hash);
    const std::string folder = shellQuote(plan.target.folder);
    // The build runs as a job: compute nodes have the cluster's compilers, MPI and LibTorch (login nodes may
    // not). The sources are built the way a clone's release preset is (build/release inside them, by Ninja
    // where the cluster has it): the same relative paths in every compile, so that the compiler cache serves
    // this build from an earlier version's, or from a clone's on the same machine (the test cluster's).
    const std::string build =
        "set -e; cd " + folder +
        "/src; "
        "generator=; if command -v ninja >/dev/null; then generator='-G Ninja'; fi; "
        "cmake -S . -B build/release $generator -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_ENGINE_ONLY=ON "
        // Plain progress lines in the log that the console shows (make colours them otherwise).
        "-DCMAKE_COLOR_MAKEFILE=OFF "
        // Where jobs get GPUs: LibTorch's CUDA libraries (training on the GPU) and
        // NCCL with the CUDA toolkit it needs; elsewhere neither.
        "-DSCALEBENCH_CUDA=" +
        std::string(settings_.gpus_per_node > 0 ? "ON" : "OFF") +
        " -DSCALEBENCH_NCCL=" + std::string(settings_.gpus_per_node > 0 ? "ON" : "OFF") +
        " "
        // The torch the engine builds against, last: the injection tests read it as the last argument.
        "-DSCALEBENCH_PYTHON=\"$(command -v " +
        shellQuote(settings_.torch_python) +
        ")\"; "
        "cmake --build build/release --parallel \"$(nproc)\"";
    plan.job.name = "scalebench-build-" + plan.target.hash;
    plan.job.program = {"/bin/bash", "-c", build};
    plan.job.run_dir = plan.target.folder;
    // On the nodes the runs will have: one task with one GPU where they get GPUs (a GPU job is one task per
    // GPU, and the compiler needs no more).
    plan.job.gpus_per_node = settings_.gpus_per_node > 0 ? 1 : 0;
    return plan;
}

namespace {

using Progress = std::function<void(const std::string&)>;

// Seconds since `start`, for messages.
long long secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
}

// The packed sources uploaded to the deployment's folder and unpacked in its src/.
void uploadSources(Transport& cluster, const EngineBuildPlan& build) {
    const DeployedEngine& deployed = build.target;
    const std::string folder = shellQuote(deployed.folder);
    const CommandResult mkdir = cluster.run("mkdir -p " + folder + "/src");
    if (mkdir.exit_status != 0) throw TransportError("cannot create " + deployed.folder + ": " + mkdir.err);
    cluster.upload(build.archive, deployed.folder + "/sources.tar.gz");
    const CommandResult unpack = cluster.run("tar -xzf " + folder + "/sources.tar.gz -C " + folder + "/src");
    if (unpack.exit_status != 0) throw TransportError("cannot unpack the engine's sources: " + unpack.err);
}

// A build of these sources that failed before left its attempt folders and logs: they are put aside in
// failed-N, so that this build runs in new ones (a job never runs in a folder that exists) and the earlier
// log stays readable.
void putFailedBuildAside(Transport& cluster, const std::string& deployment_folder) {
    const std::string folder = shellQuote(deployment_folder);
    const CommandResult aside = cluster.run(
        "cd " + folder +
        " && if [ -e attempt-0 ]; then n=1; while [ -e failed-$n ]; do n=$((n+1)); done; mkdir failed-$n && "
        "for f in attempt-* stdout.log stderr.log job.sbatch .sbatch-*; do [ ! -e \"$f\" ] || mv \"$f\" "
        "failed-$n/; done; fi");
    if (aside.exit_status != 0)
        throw TransportError("cannot put the failed build's folders aside in " + deployment_folder + ": " +
                             aside.err);
}

// A submitted build job, as the messages about it name it.
struct BuildJob {
    std::string hash;
    std::string id;
    std::string tag; // "engine HASH: build job ID"
    std::string log; // its stdout.log on the cluster
    std::chrono::steady_clock::time_point started;
};

// The lines of the build's log written since the last look (`log_offset`), the last few of them.
void showNewLogLines(Transport& cluster, const BuildJob& job, std::int64_t& log_offset,
                     const Progress& progress) {
    const std::optional<std::string> text = cluster.readFrom(job.log, log_offset, 1 << 20);
    if (!text) return;
    const std::size_t complete = text->rfind('\n');
    if (complete == std::string::npos) return;
    log_offset += static_cast<std::int64_t>(complete + 1);
    std::vector<std::string> lines;
    std::istringstream in(text->substr(0, complete + 1));
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    constexpr std::size_t kShown = 3; // lines of the log per look
    const std::size_t first = lines.size() > kShown ? lines.size() - kShown : 0;
    for (std::size_t i = first; i < lines.size(); ++i)
        progress("engine " + job.hash + ": [" + std::to_string(secondsSince(job.started)) + " s] " +
                 lines[i]);
}

// "engine HASH: build job ID pending (Priority) after 12 s": the job's state, why it waits, where it runs.
std::string stateLine(const BuildJob& job, const JobStatus& status) {
    std::string line = job.tag + " " + toString(status.state);
    if (!status.reason.empty() && status.state == JobState::Pending) line += " (" + status.reason + ")";
    if (!status.nodes.empty() && status.state == JobState::Running) line += " on " + status.nodes;
    return line + " after " + std::to_string(secondsSince(job.started)) + " s";
}

// Polls the build job until it ends, telling `progress` each change of its state and its log's new lines
// every `log_every`; past `timeout` it is cancelled and TransportError thrown.
JobStatus awaitBuildJob(Transport& cluster, Scheduler& scheduler, const BuildJob& job,
                        const Progress& progress, std::chrono::seconds timeout,
                        std::chrono::seconds log_every) {
    const auto deadline = job.started + timeout;
    auto next_log = job.started + log_every;
    std::int64_t log_offset = 0; // what of the log has been read: up to its last complete line
    JobStatus status;
    std::optional<JobStatus> shown;
    for (;;) {
        status = scheduler.poll({job.id}).at(job.id);
        if (!shown || status.state != shown->state || status.reason != shown->reason ||
            status.nodes != shown->nodes) {
            progress(stateLine(job, status));
            shown = status;
        }
        if (isFinal(status.state)) break;
        if (std::chrono::steady_clock::now() > deadline) {
            scheduler.cancel(job.id);
            throw TransportError("the engine's build job " + job.id + " did not finish in " +
                                 std::to_string(timeout.count()) + " s");
        }
        if (std::chrono::steady_clock::now() >= next_log) {
            next_log = std::chrono::steady_clock::now() + log_every;
            showNewLogLines(cluster, job, log_offset, progress);
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return status;
}

} // namespace

DeployedEngine EngineDeployment::ensure(const std::function<void(const std::string&)>& progress,
                                        std::chrono::seconds timeout, std::chrono::seconds log_every) {
    const ScratchFolder scratch("scalebench-deploy");
    const EngineBuildPlan build = plan(scratch.path());
    DeployedEngine deployed = build.target;
    const std::string& hash = deployed.hash;
    if (cluster_.run("test -x " + shellQuote(deployed.engine)).exit_status == 0) {
        progress("engine " + hash + ": already built on " + cluster_.describe());
        return deployed;
    }

    progress("engine " + hash + ": uploading sources to " + cluster_.describe() + ":" + deployed.folder);
    uploadSources(cluster_, build);
    putFailedBuildAside(cluster_, deployed.folder);
    const std::string job_id = scheduler_.submit(build.job);
    const std::string log = deployed.folder + "/stdout.log";
    const std::string tag = "engine " + hash + ": build job " + job_id;
    const std::string builder = isLocalMachine(settings_) ? "mpirun builds the engine on this machine"
                                                          : "a Slurm job builds the engine on a compute node";
    progress(tag + " submitted (" + builder + ": minutes); its log: " + log);
    const BuildJob job{hash, job_id, tag, log, std::chrono::steady_clock::now()};
    const JobStatus status = awaitBuildJob(cluster_, scheduler_, job, progress, timeout, log_every);
    if (status.state != JobState::Completed ||
        cluster_.run("test -x " + shellQuote(deployed.engine)).exit_status) {
        const std::string folder = shellQuote(deployed.folder);
        const std::string tail =
            cluster_.run("tail -n 25 " + folder + "/stdout.log " + folder + "/stderr.log").out;
        throw TransportError("the engine's build job " + job_id + " " + toString(status.state) + " on " +
                             cluster_.describe() + " after " + std::to_string(secondsSince(job.started)) +
                             " s; its log ends:\n" + tail);
    }
    progress("engine " + hash + ": built in " + std::to_string(secondsSince(job.started)) + " s (job " +
             job_id + ")");
    deployed.built_now = true;
    return deployed;
}

} // namespace scalebench
