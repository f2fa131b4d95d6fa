// Renders a job as the sbatch script of one run from the cluster's settings.
#include "slurm_job_script.h"

#include "run_plan.h"
#include "shell_words.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace scalebench {

std::string slurmJobName(const std::string& name) {
    std::string out;
    for (unsigned char c : name)
        out += (std::isalnum(c) || c == '.' || c == '_' || c == '-') ? char(c) : '_';
    return out.empty() ? "scalebench" : out.substr(0, 128);
}

namespace {
// #SBATCH lines are read by sbatch, not by a shell: a value must stay on its line.
std::string directiveValue(const std::string& key, const std::string& value) {
    if (value.find_first_of("\n\r") != std::string::npos)
        throw std::invalid_argument("cluster setting " + key + " must not contain a line break");
    return value;
}

// How each task reaches its GPU, said in the script. Every task sees all GPUs Slurm gave its node (the step's
// CUDA_VISIBLE_DEVICES, e.g. 0,1,2,3) and the engine takes the one at its node-local rank, as PyTorch and
// NCCL jobs do: NCCL then sees every GPU of the node for peer-to-peer copies. Not srun --gpu-bind=none (Slurm
// then sets no CUDA_VISIBLE_DEVICES at all), nor --gpus-per-task (mpirun starts one Slurm task per node, not
// per rank, so it could not be the same under both launchers). Under mpirun every rank has SLURM_LOCALID 0
// (its node's orted's): the local rank is Open MPI's.
// A command run's program picks its GPU itself (nccl-tests with -g 1 takes the one at its node-local rank).
std::string gpuBinding(int gpus_per_node, bool srun, bool engine) {
    return "# GPU binding: one task per GPU; each of a node's tasks sees the node's " +
           std::to_string(gpus_per_node) + " GPU(s) (CUDA_VISIBLE_DEVICES from Slurm) and " +
           (engine ? "the engine takes" : "the command chooses, as nccl-tests -g 1 does,") +
           " the one at its node-local rank (" + (srun ? "SLURM_LOCALID" : "OMPI_COMM_WORLD_LOCAL_RANK") +
           ")\n";
}

// The #SBATCH lines: the job's shape and what the cluster's settings ask of Slurm, and where its logs go.
std::string sbatchDirectives(const ClusterSettings& c, const JobRequest& job) {
    std::string s;
    auto directive = [&](const std::string& key, const std::string& value) {
        s.append("#SBATCH --").append(key);
        if (!value.empty()) s.append("=").append(directiveValue(key, value));
        s.append("\n");
    };
    // One task per GPU: a node's tasks and its GPUs are the same number (jobRequestFor packs them so).
    if (job.gpus_per_node > 0 && job.ranks_per_node != job.gpus_per_node)
        throw std::invalid_argument("a GPU job runs one task per GPU, not " +
                                    std::to_string(job.ranks_per_node) + " task(s) with " +
                                    std::to_string(job.gpus_per_node) + " GPU(s) per node");
    directive("job-name", slurmJobName(job.name));
    directive("nodes", std::to_string(job.nodes));
    directive("ntasks", std::to_string(job.ranks));
    directive("ntasks-per-node", std::to_string(job.ranks_per_node));
    if (job.gpus_per_node > 0) {
        if (c.gres_syntax)
            directive("gres", "gpu:" + std::to_string(job.gpus_per_node));
        else
            directive("gpus-per-node", std::to_string(job.gpus_per_node));
    }
    if (!c.partition.empty()) directive("partition", c.partition);
    if (!c.account.empty()) directive("account", c.account);
    if (!c.constraint.empty()) directive("constraint", c.constraint);
    if (!c.time_limit.empty()) directive("time", c.time_limit);
    if (c.exclusive) directive("exclusive", "");
    if (!job.exclude_nodes.empty()) {
        std::string nodes;
        for (const std::string& node : job.exclude_nodes)
            nodes += (nodes.empty() ? "" : ",") + node;
        directive("exclude", nodes);
    }
    // Relative to the folder sbatch is run from (the run's folder): sbatch splits directive values at spaces,
    // so a path with one cannot stand here.
    directive("output", "stdout.log");
    directive("error", "stderr.log");
    // A requeued job runs this script again: its logs go on after the earlier attempt's, not over them.
    directive("open-mode", "append");
    return s;
}

// The script's first commands: strict mode, then into a folder of this attempt's own, announced in both logs.
std::string attemptFolderCommands(const JobRequest& job) {
    std::string s = "set -euo pipefail\n";
    s += "cd " + shellQuote(job.run_dir) + "\n";
    // Each attempt in a new folder of its own (mkdir fails on one that exists: nothing is appended to).
    s += "attempt=attempt-${SLURM_RESTART_COUNT:-0}\n";
    s += "mkdir \"$attempt\"\n";
    s += "cd \"$attempt\"\n";
    s += "banner=\"scalebench: $attempt of job ${SLURM_JOB_ID:-?} on ${SLURM_JOB_NODELIST:-?}\"\n";
    s += "echo \"$banner\"\necho \"$banner\" >&2\n";
    return s;
}

// The cluster's setup lines, then its NCCL variables and the job's own exported.
std::string environmentCommands(const ClusterSettings& c, const JobRequest& job) {
    std::string s;
    for (const auto& line : c.setup_lines)
        s += line + "\n";
    for (const auto& [key, value] : c.nccl_env) {
        if (key.empty() ||
            key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
            throw std::invalid_argument("'" + key + "' is not an environment variable name");
        s += "export " + key + "=" + shellQuote(value) + "\n";
    }
    for (const auto& [key, value] : job.environment) {
        if (!isEnvironmentVariableName(key))
            throw std::invalid_argument("'" + key + "' is not an environment variable name");
        s += "export " + key + "=" + shellQuote(value) + "\n";
    }
    return s;
}

// The launch: how tasks reach their GPUs and the container they run in, said in comments, then the
// launcher's command line with the program.
std::string launchCommands(const ClusterSettings& c, const JobRequest& job) {
    std::string s;
    const bool srun = c.launcher == ClusterSettings::Launcher::SrunPmix;
    if (job.gpus_per_node > 0)
        s += gpuBinding(job.gpus_per_node, srun || !job.container_image.empty(), job.engine);
    std::vector<std::string> launcher;
    std::string workdir; // a container's working directory: the attempt's folder, which the script is in
    if (!job.container_image.empty()) {
        // pyxis runs a container under srun only; the run's folder is mounted at its own path, so the
        // command's files land where the console reads them.
        std::string mounts = job.run_dir + ":" + job.run_dir;
        for (const auto& mount : job.container_mounts)
            mounts += "," + mount;
        s += "# container: pyxis starts " + directiveValue("container_image", job.container_image) +
             " for every task (srun), with the run's folder mounted at its own path\n";
        launcher = {"srun", "--mpi=pmix", "--container-image=" + job.container_image,
                    "--container-mounts=" + mounts};
        workdir = " --container-workdir=\"$PWD\"";
    } else if (srun) {
        launcher = {"srun", "--mpi=pmix"};
        if (!c.container_image.empty()) launcher.push_back("--container-image=" + c.container_image);
    } else {
        launcher = {"mpirun", "-np", std::to_string(job.ranks), "--bind-to", "none"};
    }
    s += shellJoin(launcher) + workdir + " " + shellJoin(job.program);
    // A command's standard output (every task's, through the launcher) is what the console reads.
    if (job.output_from_stdout) s += " > " + shellQuote(job.output);
    s += "\n";
    return s;
}
} // namespace

std::string renderSbatchScript(const ClusterSettings& c, const JobRequest& job) {
    std::string s = "#!/bin/bash\n";
    s += sbatchDirectives(c, job);
    s += attemptFolderCommands(job);
    s += environmentCommands(c, job);
    s += launchCommands(c, job);
    return s;
}

} // namespace scalebench
