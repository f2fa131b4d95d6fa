// Cluster settings: read from a user's TOML file, kept in the session store as JSON.
#include "cluster_settings.h"

#include "toml_table_reader.h"

#include <nlohmann/json.hpp>

namespace scalebench {
namespace {

const char* launcherName(ClusterSettings::Launcher l) {
    return l == ClusterSettings::Launcher::Mpirun ? "mpirun" : "srun-pmix";
}

ClusterSettings readCluster(const toml::table& table, const std::string& file, int index) {
    TableReader r(table, file, "[[cluster]] #" + std::to_string(index),
                  {"name",
                   "host",
                   "user",
                   "port",
                   "identity_files",
                   "known_hosts",
                   "trust_on_first_use",
                   "remote_root",
                   "torch_python",
                   "partition",
                   "account",
                   "constraint",
                   "time_limit",
                   "tasks_per_node",
                   "gpus_per_node",
                   "gres_syntax",
                   "exclusive",
                   "setup",
                   "nccl_env",
                   "container_image",
                   "launcher",
                   "poll_seconds",
                   "jobcomp_log"});
    ClusterSettings c;
    c.name = r.text("name", "", true);
    c.host = r.text("host", "", true);
    c.user = r.text("user", "");
    c.port = r.integer("port", c.port, 0);
    c.identity_files = r.texts("identity_files");
    c.known_hosts = r.text("known_hosts", "");
    c.trust_on_first_use = r.boolean("trust_on_first_use", false);
    c.remote_root = r.text("remote_root", c.remote_root);
    c.torch_python = r.text("torch_python", c.torch_python);
    c.partition = r.text("partition", "");
    c.account = r.text("account", "");
    c.constraint = r.text("constraint", "");
    c.time_limit = r.text("time_limit", c.time_limit);
    c.tasks_per_node = r.integer("tasks_per_node", c.tasks_per_node, 1);
    c.gpus_per_node = r.integer("gpus_per_node", c.gpus_per_node, 0);
    c.gres_syntax = r.boolean("gres_syntax", false);
    c.exclusive = r.boolean("exclusive", c.exclusive);
    c.setup_lines = r.texts("setup");
    if (const toml::node* env = table.get("nccl_env")) {
        const toml::table* t = env->as_table();
        if (!t) r.fail(*env, "nccl_env", "'nccl_env' must be a table of NAME = \"value\"");
        for (auto&& [key, value] : *t) {
            auto v = value.value<std::string>();
            if (!v) r.fail(value, std::string(key.str()), "'nccl_env' values must be strings");
            c.nccl_env[std::string(key.str())] = *v;
        }
    }
    c.container_image = r.text("container_image", "");
    const std::string launcher = r.text("launcher", "srun-pmix");
    if (launcher == "mpirun")
        c.launcher = ClusterSettings::Launcher::Mpirun;
    else if (launcher != "srun-pmix")
        r.fail(*table.get("launcher"), "launcher", "'launcher' must be \"srun-pmix\" or \"mpirun\"");
    c.poll_seconds = r.integer("poll_seconds", c.poll_seconds, 1);
    c.jobcomp_log = r.text("jobcomp_log", "");
    return c;
}

} // namespace

ClusterSettings localMachine() {
    ClusterSettings c;
    c.name = kLocalClusterName;
    c.launcher = ClusterSettings::Launcher::Mpirun;
    c.time_limit.clear();
    c.exclusive = false;
    return c;
}

bool isLocalMachine(const ClusterSettings& cluster) {
    return cluster.name == kLocalClusterName && cluster.host.empty();
}

std::vector<ClusterSettings> parseClusterText(const std::string& text, const std::string& file_name) {
    const toml::table root = parseTomlDocument(text, file_name);
    TableReader r(root, file_name, "", {"cluster"});
    return readArrayOfTables(root, file_name, "cluster", r, readCluster);
}

std::vector<ClusterSettings> parseClusterFile(const std::filesystem::path& path) {
    return parseClusterText(readTomlFile(path, "cluster file"), path.string());
}

std::string clusterToJson(const ClusterSettings& c) {
    nlohmann::json j = {{"name", c.name},
                        {"host", c.host},
                        {"user", c.user},
                        {"port", c.port},
                        {"identity_files", c.identity_files},
                        {"known_hosts", c.known_hosts},
                        {"trust_on_first_use", c.trust_on_first_use},
                        {"remote_root", c.remote_root},
                        {"torch_python", c.torch_python},
                        {"partition", c.partition},
                        {"account", c.account},
                        {"constraint", c.constraint},
                        {"time_limit", c.time_limit},
                        {"tasks_per_node", c.tasks_per_node},
                        {"gpus_per_node", c.gpus_per_node},
                        {"gres_syntax", c.gres_syntax},
                        {"exclusive", c.exclusive},
                        {"setup", c.setup_lines},
                        {"nccl_env", c.nccl_env},
                        {"container_image", c.container_image},
                        {"launcher", launcherName(c.launcher)},
                        {"poll_seconds", c.poll_seconds},
                        {"jobcomp_log", c.jobcomp_log}};
    return j.dump();
}

ClusterSettings clusterFromJson(const std::string& text) {
    const auto j = nlohmann::json::parse(text);
    ClusterSettings c;
    c.name = j.value("name", "");
    c.host = j.value("host", "");
    c.user = j.value("user", "");
    c.port = j.value("port", c.port);
    c.identity_files = j.value("identity_files", std::vector<std::string>{});
    c.known_hosts = j.value("known_hosts", "");
    c.trust_on_first_use = j.value("trust_on_first_use", false);
    c.remote_root = j.value("remote_root", c.remote_root);
    c.torch_python = j.value("torch_python", c.torch_python);
    c.partition = j.value("partition", "");
    c.account = j.value("account", "");
    c.constraint = j.value("constraint", "");
    c.time_limit = j.value("time_limit", c.time_limit);
    c.tasks_per_node = j.value("tasks_per_node", c.tasks_per_node);
    c.gpus_per_node = j.value("gpus_per_node", c.gpus_per_node);
    c.gres_syntax = j.value("gres_syntax", false);
    c.exclusive = j.value("exclusive", c.exclusive);
    c.setup_lines = j.value("setup", std::vector<std::string>{});
    c.nccl_env = j.value("nccl_env", std::map<std::string, std::string>{});
    c.container_image = j.value("container_image", "");
    c.launcher = j.value("launcher", "") == "mpirun" ? ClusterSettings::Launcher::Mpirun
                                                     : ClusterSettings::Launcher::SrunPmix;
    c.poll_seconds = j.value("poll_seconds", c.poll_seconds);
    c.jobcomp_log = j.value("jobcomp_log", "");
    return c;
}

} // namespace scalebench
