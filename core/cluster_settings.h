// A cluster as scalebench reaches and uses it: the head node over SSH and how its Slurm jobs are shaped.
#pragma once

#include "engine_option_table.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace scalebench {

struct ClusterSettings {
    std::string name;
    // Reaching the head node (no secrets here: keys stay in files or the agent).
    std::string host;
    std::string user;
    int port = 0;                            // 0: the ssh config's Port, else 22
    std::vector<std::string> identity_files; // private keys to try after the agent; ~/.ssh/config's otherwise
    std::string known_hosts;                 // OpenSSH known_hosts file; empty: ~/.ssh/known_hosts
    bool trust_on_first_use = false; // an unknown host key is refused in batch mode unless this is set
    std::string remote_root =
        "scalebench";                     // per-cluster folder on the head node, relative to the home folder
    std::string torch_python = "python3"; // the cluster's Python whose torch package gives LibTorch
    // Where the cluster keeps data sets, one folder each named as the data set: a run whose plan gives no
    // data_dir reads <data_root>/<dataset>, and a relative data_dir is under it. An absolute path (the
    // runs' working folders differ).
    std::string data_root = SCALEBENCH_DATA_ROOT;

    // Shaping jobs.
    std::string partition;
    std::string account;
    std::string constraint;
    std::string time_limit = "01:00:00";
    int tasks_per_node = 1;   // ranks per node
    int gpus_per_node = 0;    // 0: no GPU request
    bool gres_syntax = false; // --gres=gpu:N instead of --gpus-per-node=N (older Slurm)
    bool exclusive = true;
    std::vector<std::string> setup_lines;        // e.g. "module load cuda/12.4", run before the launcher
    std::map<std::string, std::string> nccl_env; // NCCL_* variables exported for the job
    std::string container_image;                 // pyxis --container-image, as in the MLPerf write-ups
    enum class Launcher { SrunPmix, Mpirun } launcher = Launcher::SrunPmix;
    int poll_seconds = 5;
    std::string jobcomp_log; // JobCompLoc of jobcomp/filetxt: final states of jobs sacct and scontrol forgot

    // What its time costs: the price of one GPU-hour (0: no price, no costs shown), and its currency as
    // ISO 4217 writes it (three upper-case letters: USD, EUR, CHF). On CPU runs a "GPU" is a rank: the price
    // applies to ranks x hours.
    double price_per_gpu_hour = 0;
    std::string currency = "USD";
};

// "local": this machine, always there, never stored: runs go through mpirun here (the embedded default).
inline constexpr const char* kLocalClusterName = "local";
ClusterSettings localMachine();
bool isLocalMachine(const ClusterSettings& cluster);

// Clusters as a user writes them: [[cluster]] tables in TOML; problems named by file, line and key
// (PlanError).
std::vector<ClusterSettings> parseClusterText(const std::string& text, const std::string& file_name);
std::vector<ClusterSettings> parseClusterFile(const std::filesystem::path& path);
// As the session store keeps them (no secrets: keys stay in files or the agent). Reading does not check the
// settings: a store written before they were checked still loads; clusterProblems() says what is wrong.
std::string clusterToJson(const ClusterSettings& cluster);
ClusterSettings clusterFromJson(const std::string& json);

// A setting that ssh, Slurm or a job script would refuse or misread.
struct ClusterProblem {
    std::string key; // the [[cluster]] key, e.g. "time_limit"
    std::string
        problem;   // names the key, quotes the value (control characters escaped), says what is accepted
    int item = -1; // setup, identity_files: the entry at fault (0-based)
    std::string variable; // nccl_env: the variable at fault
};
// Every problem of a cluster's settings, in the order of its keys; none for one that can be used. Checked
// wherever a cluster is kept (cluster files, the Clusters tab) and before one is used.
std::vector<ClusterProblem> clusterProblems(const ClusterSettings& cluster);
// A value as a problem quotes it: in single quotes, a line break shown as \n, other control characters as
// \xNN.
std::string quotedSetting(const std::string& value);

} // namespace scalebench
