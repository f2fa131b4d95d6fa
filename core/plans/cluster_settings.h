// A cluster as scalebench reaches and uses it: the head node over SSH and how its Slurm jobs are shaped.
#pragma once

#include "engine_option_table.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace scalebench {

// Every setting of a [[cluster]] table, written once: X(key, member, Kind, least, rule, help, default...).
// The reader of cluster files, the store's JSON (both ways), the members of ClusterSettings, the Clusters
// form and clusterProblems() are made from it; `rule` names what the value may be (cluster_settings.cpp's
// cluster_rule: atLeast takes `least`, anything takes any value of its kind).
//   Kind: Text, Int (at least `least`), Switch (true or false), Texts (a list of strings), Env (a table of
//   NAME = "value"), Number (any finite number), Launcher ("srun-pmix" or "mpirun").
//   The key is the member's name but for `setup` (setup_lines).
#define SCALEBENCH_CLUSTER_KEYS(X)                                                                           \
    X(name, name, Text, 0, clusterName,                                                                      \
      "what --cluster takes: letters, digits, '.', '_' and '-' (required)", "")                              \
    /* Reaching the head node (no secrets here: keys stay in files or the agent). */                         \
    X(host, host, Text, 0, hostName,                                                                         \
      "the head node's host name, address or ~/.ssh/config Host alias (required)", "")                       \
    X(user, user, Text, 0, loginNameOrNone, "the login name; empty: the ssh config's", "")                   \
    X(port, port, Int, 0, tcpPort, "the head node's SSH port; 0: the ssh config's Port, else 22", 0)         \
    X(identity_files, identity_files, Texts, 0, keyFiles,                                                    \
      "private keys to try after the agent; ~/.ssh/config's otherwise", std::vector<std::string>{})          \
    X(known_hosts, known_hosts, Text, 0, oneLine, "OpenSSH known_hosts file; empty: ~/.ssh/known_hosts", "") \
    X(trust_on_first_use, trust_on_first_use, Switch, 0, anything,                                           \
      "an unknown host key is accepted and remembered (refused in batch mode unless this is set)", false)    \
    X(remote_root, remote_root, Text, 0, remoteFolder,                                                       \
      "scalebench's folder on the cluster, relative to the home folder", "scalebench")                       \
    X(torch_python, torch_python, Text, 0, pythonCommand,                                                    \
      "the cluster's Python whose torch package gives LibTorch", "python3")                                  \
    X(data_root, data_root, Text, 0, absoluteFolder,                                                         \
      "the cluster's data sets, one folder each named as the data set, as the compute nodes see it: a run "  \
      "whose plan gives no data_dir reads DATA_ROOT/DATASET, and a relative data_dir is under it",           \
      SCALEBENCH_DATA_ROOT)                                                                                  \
    /* Shaping jobs. */                                                                                      \
    X(partition, partition, Text, 0, partitions, "sbatch --partition; empty: the cluster's default", "")     \
    X(account, account, Text, 0, slurmAccount, "sbatch --account; empty: none", "")                          \
    X(constraint, constraint, Text, 0, featureExpression, "sbatch --constraint; empty: none", "")            \
    X(time_limit, time_limit, Text, 0, slurmTime, "sbatch --time; empty: the partition's", "01:00:00")       \
    X(tasks_per_node, tasks_per_node, Int, 1, atLeast, "ranks per node", 1)                                  \
    X(gpus_per_node, gpus_per_node, Int, 0, atLeast, "GPUs asked for per node; 0: no GPU request", 0)        \
    X(gres_syntax, gres_syntax, Switch, 0, anything,                                                         \
      "--gres=gpu:N instead of --gpus-per-node=N (older Slurm)", false)                                      \
    X(exclusive, exclusive, Switch, 0, anything, "whole nodes for every job (sbatch --exclusive)", true)     \
    X(setup, setup_lines, Texts, 0, shellLines, "lines run before the launcher, e.g. module load cuda/12.4", \
      std::vector<std::string>{})                                                                            \
    X(nccl_env, nccl_env, Env, 0, ncclVariables, "NCCL_* variables exported for the job",                    \
      std::map<std::string, std::string>{})                                                                  \
    X(container_image, container_image, Text, 0, imageName,                                                  \
      "pyxis --container-image, as in the MLPerf write-ups", "")                                             \
    X(launcher, launcher, Launcher, 0, anything, "how ranks start: srun-pmix or mpirun", Launcher::SrunPmix) \
    X(poll_seconds, poll_seconds, Int, 1, atLeast, "seconds between looks at the jobs", 5)                   \
    X(jobcomp_log, jobcomp_log, Text, 0, jobcompLog,                                                         \
      "JobCompLoc of jobcomp/filetxt: final states of jobs sacct and scontrol forgot", "")                   \
    /* What its time costs (0: no price, no costs shown); on CPU runs a "GPU" is a rank. */                  \
    X(price_per_gpu_hour, price_per_gpu_hour, Number, 0, price, "the price of one GPU-hour in the currency", \
      0.0)                                                                                                   \
    X(currency, currency, Text, 0, currencyCode, "ISO 4217's three upper-case letters: USD, EUR, CHF", "USD")

namespace cluster_key {
enum class Kind { Text, Int, Switch, Texts, Env, Number, Launcher };
enum class Launcher { SrunPmix, Mpirun };
template <Kind> struct ValueOf;
template <> struct ValueOf<Kind::Text> { using type = std::string; };
template <> struct ValueOf<Kind::Int> { using type = int; };
template <> struct ValueOf<Kind::Switch> { using type = bool; };
template <> struct ValueOf<Kind::Texts> { using type = std::vector<std::string>; };
template <> struct ValueOf<Kind::Env> { using type = std::map<std::string, std::string>; };
template <> struct ValueOf<Kind::Number> { using type = double; };
template <> struct ValueOf<Kind::Launcher> { using type = Launcher; };
template <Kind K> using Value = typename ValueOf<K>::type;
} // namespace cluster_key

struct ClusterSettings {
    using Launcher = cluster_key::Launcher;
#define SCALEBENCH_CLUSTER_MEMBER(key, member, kind, least, rule, help, ...)                                 \
    cluster_key::Value<cluster_key::Kind::kind> member = __VA_ARGS__;
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_MEMBER)
#undef SCALEBENCH_CLUSTER_MEMBER
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
