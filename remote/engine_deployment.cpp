// Deploys the engine to a cluster: its sources packed, uploaded to a folder named by their content hash,
// built there once by a Slurm job against the cluster's LibTorch and MPI, and reused by every later run with
// the same hash.
#include "engine_deployment.h"

#include "local_transport.h"
#include "scratch_folder.h"
#include "shell_words.h"

#include <thread>

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
    const CommandResult tar =
        local.run("tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --exclude='*.o' -C " +
                  shellQuote(source_dir_.string()) + " -cf - CMakeLists.txt cmake trainers | gzip -n > " +
                  shellQuote(archive.string()) + " && sha256sum " + shellQuote(archive.string()));
    if (tar.exit_status != 0) throw TransportError("cannot pack the engine's sources: " + tar.err);
    return {tar.out.substr(0, 16), archive};
}

DeployedEngine EngineDeployment::ensure(const std::function<void(const std::string&)>& progress,
                                        std::chrono::seconds timeout) {
    const ScratchFolder scratch("scalebench-deploy");
    const auto [hash, archive] = pack(scratch.path());
    DeployedEngine deployed;
    deployed.hash = hash;
    deployed.folder = settings_.remote_root + "/engine/" + hash;
    deployed.engine = deployed.folder + "/build/trainers/scalebench-engine";
    if (cluster_.run("test -x " + shellQuote(deployed.engine)).exit_status == 0) {
        progress("engine " + hash + ": already built on " + cluster_.describe());
        return deployed;
    }

    progress("engine " + hash + ": uploading sources to " + cluster_.describe() + ":" + deployed.folder);
    const std::string folder = shellQuote(deployed.folder);
    const CommandResult mkdir = cluster_.run("mkdir -p " + folder + "/src");
    if (mkdir.exit_status != 0) throw TransportError("cannot create " + deployed.folder + ": " + mkdir.err);
    cluster_.upload(archive, deployed.folder + "/sources.tar.gz");
    const CommandResult unpack = cluster_.run("tar -xzf " + folder + "/sources.tar.gz -C " + folder + "/src");
    if (unpack.exit_status != 0) throw TransportError("cannot unpack the engine's sources: " + unpack.err);

    // The build runs as a job: compute nodes have the cluster's compilers, MPI and LibTorch (login nodes may
    // not).
    const std::string build = "set -e; cd " + folder +
                              "; "
                              "cmake -S src -B build -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_ENGINE_ONLY=ON "
                              // NCCL (and the CUDA toolkit it needs) only where jobs get GPUs.
                              "-DSCALEBENCH_NCCL=" +
                              std::string(settings_.gpus_per_node > 0 ? "ON" : "OFF") +
                              " "
                              "-DSCALEBENCH_PYTHON=\"$(command -v " +
                              shellQuote(settings_.torch_python) +
                              ")\"; "
                              "cmake --build build --parallel \"$(nproc)\"";
    progress("engine " + hash + ": building on the cluster (a Slurm job)");
    const std::string job_id =
        scheduler_.submit({"scalebench-build-" + hash, 1, {"/bin/bash", "-c", build}, deployed.folder});
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    JobStatus status;
    for (;;) {
        status = scheduler_.poll({job_id}).at(job_id);
        if (isFinal(status.state)) break;
        if (std::chrono::steady_clock::now() > deadline) {
            scheduler_.cancel(job_id);
            throw TransportError("the engine's build job " + job_id + " did not finish in time");
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (status.state != JobState::Completed ||
        cluster_.run("test -x " + shellQuote(deployed.engine)).exit_status) {
        const std::string log =
            cluster_.run("tail -n 25 " + folder + "/stdout.log " + folder + "/stderr.log").out;
        throw TransportError("the engine's build job " + job_id + " " + toString(status.state) + " on " +
                             cluster_.describe() + "; its log ends:\n" + log);
    }
    progress("engine " + hash + ": built");
    deployed.built_now = true;
    return deployed;
}

} // namespace scalebench
