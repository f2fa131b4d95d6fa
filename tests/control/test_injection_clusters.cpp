// Injection through the cluster file: hostile text in every cluster setting is refused with a message naming
// the key, or reaches its job, the engine's deployment, libssh or the store as exactly what was written (the
// sweep: injection_sweep.h).
//
// The cluster file's fields, and where each goes:
//   name            SQL (clusters.name), --cluster lookups
//   host, user      libssh (and ssh's ProxyCommand, where a ssh config's ProxyCommand takes %h %r)
//   identity_files, known_hosts: libssh's file paths (known_hosts also a jump host's ssh -o)
//   remote_root     shell commands on the head (mkdir -p, cd, tar, test -x, tail), the script's `cd RUN_DIR`,
//                   the engine's path in every job, the engine's build job
//   torch_python    the build job's `command -v PYTHON`; the --check script's argument
//   data_root       the engine's argv (--data-dir)
//   partition, account, constraint, time_limit: #SBATCH lines (partition: scontrol show partition)
//   setup           shell lines of every job: shell code by design, run as written
//   nccl_env names and values: `export NAME='value'` lines of every job
//   container_image srun's argv (--container-image=IMAGE)
//   jobcomp_log     `tail -n 10000 FILE` on the head
//   launcher        a choice
//   all of them     SQL (clusters.settings_json, sessions.cluster_json)
#include "child_process.h"
#include "cluster_settings.h"
#include "engine_deployment.h"
#include "file_text.h"
#include "injection_sweep.h"
#include "job_request.h"
#include "local_transport.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "session_site.h"
#include "session_store.h"
#include "slurm_job_script.h"
#include "slurm_scheduler.h"
#include "ssh_transport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace scalebench;
using namespace scalebench::injection;
namespace fs = std::filesystem;

namespace {

// A cluster file of one [[cluster]] with `line` last, the sweep's settings for the keys before it (all but
// `key`), and the line it is on.
std::pair<std::string, int> clusterWith(const std::string& key, const std::string& line) {
    const ClusterSettings c = sweepCluster();
    std::string text = "[[cluster]]\n";
    int at = 2;
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{{"name", c.name},
                                                                               {"host", c.host},
                                                                               {"remote_root", c.remote_root},
                                                                               {"time_limit", c.time_limit}})
        if (k != key) text += k + " = " + tomlString(v) + "\n", ++at;
    return {text + line + "\n", at};
}

// A run of the sweep: resnet20 on fashion-mnist at one rank.
RunSpec sweepRun() {
    return expandPlan(parsePlanText(planWith("steps = 1").first, "sweep.toml")).at(0);
}

// The engine's deployment over LocalTransport with the recorders: the sources packed (a skeleton of the
// engine's), unpacked in REMOTE_ROOT/engine/HASH, the build job's script run by bash through srun, its cmake
// a recorder; then the build is found missing (cmake built nothing) and refused with its log.
struct DeployLaunch {
    std::string error;
    std::vector<std::string> cmake;
    std::vector<std::string> escaped;
    bool canary = false;
};

DeployLaunch deploy(const ClusterSettings& cluster) {
    const fs::path sources = sandbox().folder.path / "sources";
    for (const auto& f : {sources / "cmake", sources / "protocol", sources / "trainers"})
        fs::create_directories(f);
    std::ofstream(sources / "CMakeLists.txt") << "# skeleton\n";
    ShadowedCommands shadowed;
    sandbox().forget();
    const auto before = sandbox().tree();
    DeployLaunch launch;
    try {
        LocalTransport transport;
        SlurmScheduler slurm(transport, cluster);
        EngineDeployment(transport, slurm, cluster, sources)
            .ensure([](const std::string&) {}, std::chrono::seconds(30), std::chrono::seconds(3600));
    } catch (const std::exception& e) {
        launch.error = e.what();
    }
    launch.cmake = sandbox().argv("cmake").value_or(std::vector<std::string>{});
    launch.canary = fs::exists(sandbox().canary());
    launch.escaped = escapedPaths(before, {fs::absolute(cluster.remote_root)});
    removeNew(before);
    return launch;
}

// The number of #SBATCH directives sbatch reads: those before the script's first command.
int directiveCount(const std::string& script) {
    std::istringstream in(script);
    int count = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("#SBATCH"))
            ++count;
        else if (!line.starts_with("#") && !line.empty())
            break;
    }
    return count;
}

} // namespace

TEST_CASE("every payload in every cluster setting is refused naming the key, or reaches its job as written",
          "[integration]") {
    const std::vector<std::string> keys = {
        "name",      "host",           "user",          "identity_files",  "known_hosts", "remote_root",
        "data_root", "torch_python",   "partition",     "account",         "constraint",  "time_limit",
        "setup",     "nccl_env value", "nccl_env name", "container_image", "jobcomp_log", "launcher"};
    const int base_directives = directiveCount(renderSbatchScript(
        sweepCluster(), jobRequestFor(sweepRun(), {sweepCluster(), "engine", "/r/sessions", {"S", 1, "U"}})));
    for (const auto& p : payloads()) {
        const std::string q = tomlString(p.text);
        for (const auto& key : keys) {
            INFO(key << " = " << p.label);
            const std::string field = "cluster " + key;
            const std::string toml_key = key.starts_with("nccl_env") ? "nccl_env" : key;
            const std::string line = key == "identity_files" || key == "setup" ? key + " = [" + q + "]"
                                     : key == "nccl_env value" ? "nccl_env = { NCCL_INJECTED = " + q + " }"
                                     : key == "nccl_env name"  ? "nccl_env = { " + q + " = \"1\" }"
                                                               : key + " = " + q;
            const auto [text, at] = clusterWith(key, line);
            ClusterSettings c;
            if (const std::string why =
                    refusal([&] { c = parseClusterText(text, "clusters.toml").at(0); }, toml_key, at);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            // Kept in the store as JSON: the same settings come back.
            SessionStore& store = sweepStore().store;
            store.saveCluster(c);
            const auto kept = store.cluster(c.name);
            REQUIRE(kept);
            CHECK(clusterToJson(*kept) == clusterToJson(c));
            bool intact = clusterToJson(*kept) == clusterToJson(c);
            std::string how = "kept in the store as written (JSON in SQL)";
            const RunSpec run = sweepRun();
            if (p.text.empty() &&
                (key == "user" || key == "partition" || key == "account" || key == "constraint" ||
                 key == "time_limit" || key == "container_image" || key == "jobcomp_log")) {
                note(p, field, "default", "empty: none, the default (no directive, no option, no command)");
                continue;
            } else if (key == "remote_root" || key == "torch_python") {
                ClusterSettings used = c;
                // Absolute, as clusterSite makes it (`mkdir -p ROOT && cd ROOT && pwd` on the head, over
                // SSH).
                used.remote_root = (sandbox().home() / placed(c.remote_root)).lexically_normal().string();
                // The engine's folder is named by its sources' hash: a build job of its own for each payload.
                static int builds = 0;
                if (key == "torch_python")
                    used.remote_root =
                        (sandbox().folder.path / ("remote-" + std::to_string(++builds))).string();
                const SlurmLaunch job = launchOnSlurm(used, run);
                std::string outside;
                for (const auto& path : job.escaped)
                    outside += "\noutside: " + path;
                INFO(job.error << "\n" << job.script << outside);
                const std::string engine = deployedEngine(used.remote_root, "HASH");
                CHECK(job.error.empty());
                CHECK(std::find(job.srun.begin(), job.srun.end(), engine) != job.srun.end());
                const DeployLaunch build = deploy(used);
                INFO(build.error);
                CHECK(build.error.find("did not finish") == std::string::npos);
                REQUIRE_FALSE(build.cmake.empty());
                // What bash's `command -v` says for that very word, handed over as an argument (no quoting).
                const fs::path said = sandbox().folder.path / "command-v";
                ChildProcess({"/bin/bash", "-c", "command -v \"$1\"", "-", c.torch_python}, said.string(),
                             "/dev/null")
                    .wait();
                std::string python = fileText(said);
                if (!python.empty() && python.back() == '\n') python.pop_back();
                CHECK(build.cmake.back() == "-DSCALEBENCH_PYTHON=" + python);
                CHECK_FALSE(job.canary);
                CHECK_FALSE(build.canary);
                CHECK(job.escaped.empty());
                CHECK(build.escaped.empty());
                intact = intact && job.error.empty() && !job.canary && !build.canary && job.escaped.empty() &&
                         build.escaped.empty() && build.cmake.back() == "-DSCALEBENCH_PYTHON=" + python;
                how += "; the run's job (mkdir, cd, sbatch) and the engine's deployment (mkdir, tar, test, "
                       "the build job's cmake) run by sh and bash: no canary, files only under remote_root";
            } else if (key == "data_root" || key == "container_image" || key == "nccl_env value" ||
                       key == "partition" || key == "account" || key == "constraint" || key == "time_limit") {
                const SlurmLaunch job = launchOnSlurm(c, run);
                INFO(job.error << "\n" << job.script);
                CHECK(job.error.empty());
                CHECK_FALSE(job.canary);
                CHECK(job.escaped.empty());
                intact = intact && job.error.empty() && !job.canary && job.escaped.empty();
                if (key == "data_root") {
                    CHECK(after(job.srun, "--data-dir") == c.data_root + "/fashion-mnist");
                    intact = intact && after(job.srun, "--data-dir") == c.data_root + "/fashion-mnist";
                } else if (key == "container_image") {
                    const bool found = std::find(job.srun.begin(), job.srun.end(),
                                                 "--container-image=" + p.text) != job.srun.end();
                    CHECK(found);
                    intact = intact && found;
                } else if (key == "nccl_env value") {
                    CHECK(job.nccl_injected == p.text);
                    intact = intact && job.nccl_injected == p.text;
                } else {
                    const std::string directive =
                        "#SBATCH --" + (key == "time_limit" ? "time" : key) + "=" + p.text;
                    const bool found = job.script.find(directive + "\n") != std::string::npos;
                    CHECK(found);
                    CHECK(directiveCount(job.script) == base_directives + (key == "time_limit" ? 0 : 1));
                    intact = intact && found;
                }
                how +=
                    "; its job's script run by bash with srun a recorder: one word (one directive), byte for "
                    "byte, no canary";
            } else if (key == "jobcomp_log") {
                ShadowedCommands shadowed;
                sandbox().forget();
                setenv("SCALEBENCH_NO_ACCOUNTING", "1", 1);
                LocalTransport transport;
                SlurmScheduler slurm(transport, c);
                slurm.poll({"4242"});
                unsetenv("SCALEBENCH_NO_ACCOUNTING");
                const auto tail = sandbox().argv("tail").value_or(std::vector<std::string>{});
                CHECK(tail == std::vector<std::string>{"-n", "10000", p.text});
                CHECK_FALSE(p.text.starts_with("-")); // tail would read it as an option: -f follows forever
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = intact && tail == std::vector<std::string>{"-n", "10000", p.text} &&
                         !p.text.starts_with("-") && !fs::exists(sandbox().canary());
                how += "; tail -n 10000 FILE run by sh: the file one word";
            } else if (key == "setup") {
                const std::string script =
                    renderSbatchScript(c, jobRequestFor(run, {c, "e", "/r", {"S", 1, "U"}}));
                CHECK(script.find("\n" + p.text + "\n") != std::string::npos);
                CHECK(directiveCount(script) == base_directives);
                how += "; shell code by design: written as one line after the directives (adds none), run as "
                       "written";
            } else if (key == "host" || key == "user") {
                // An ssh config whose ProxyCommand takes the host and the login (%h, %r), run by libssh's
                // shell.
                const fs::path config = sandbox().folder.path / "ssh_config";
                std::ofstream(config) << "Host *\n  ProxyCommand /bin/true %h %r\n";
                sandbox().forget();
                SshSettings ssh = sshSettings(c);
                ssh.config_file = config.string();
                ssh.known_hosts_file = (sandbox().folder.path / "known_hosts").string();
                ssh.connect_timeout_s = 2;
                ssh.max_reconnects = 0;
                try {
                    SshTransport connection(ssh);
                } catch (const std::exception&) {
                    // /bin/true is no ssh server: the connection fails, after the command ran
                }
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = intact && !fs::exists(sandbox().canary());
                how += "; libssh's option, and %h %r of a ssh config's ProxyCommand run by sh: no canary";
            } else if (key == "identity_files" || key == "known_hosts") {
                how += "; reaches libssh as a file path (no shell)";
            }
            // setup is shell code the user writes; key files and known_hosts are paths libssh opens.
            const std::string accepted = key == "setup"                                    ? "shell code"
                                         : key == "identity_files" || key == "known_hosts" ? "libssh path"
                                                                                           : "quoted";
            note(p, field, intact ? accepted : "BROKEN", how);
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}
