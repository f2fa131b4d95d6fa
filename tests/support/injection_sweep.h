// The injection sweep's harness (tests/control/test_injection_*.cpp): hostile payloads, a watched sandbox
// whose scheduler commands are recorders, the store every plan and cluster of the sweep goes into, launches
// here and on Slurm, and the report of what each payload got.
//
// Each payload is refused with a message naming its field, or arrives where it goes as exactly what was
// written: nothing it says runs, and nothing is written outside the folder it names. Where each field goes
// was read from the code: core/plans/run_plan.cpp, core/plans/cluster_settings.cpp,
// core/plans/job_request.cpp, remote/slurm_job_script.cpp, remote/local_mpirun_arguments.cpp,
// remote/slurm_scheduler.cpp, remote/engine_deployment.cpp, control/session_runner.cpp,
// control/console_options.cpp, core/store/session_store.cpp.
//
// Shell forms are executed by the real /bin/sh and /bin/bash with the scheduler's commands (mpirun, srun,
// sbatch, squeue, sacct, scontrol, cmake) shadowed on PATH by recorders that write the argv they were given;
// every executing payload touches a canary file in a watched folder, whose whole tree is compared before and
// after. SCALEBENCH_INJECTION_REPORT=FILE writes every payload x field with its outcome (bench/results/).
#pragma once

#include "cluster_settings.h"
#include "run_plan.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace scalebench::injection {

// ---- The watched folder: canary, recorders, and what was there before -------------------------------------

// Where everything of the sweep happens; a payload that runs touches canary().
struct Sandbox {
    TemporaryFolder folder;
    std::filesystem::path bin() const { return folder.path / "bin"; }
    std::filesystem::path records() const { return folder.path / "records"; }
    std::filesystem::path canary() const { return folder.path / "canary"; }
    // The working folder of commands: deep enough that ../../.. stays inside the sandbox.
    std::filesystem::path home() const { return folder.path / "home" / "a" / "b" / "c" / "d"; }

    Sandbox();
    void shim(const std::string& name, const std::string& text) const;
    // What a recorder was given, and forget it.
    std::optional<std::vector<std::string>> argv(const std::string& name) const;
    std::optional<std::string> variable(const std::string& program, const std::string& name) const;
    void forget() const;
    // Every path in the sandbox but the recorders' own.
    std::set<std::filesystem::path> tree() const;
};

Sandbox& sandbox();

// The scheduler's commands resolve to the recorders, commands run in the sandbox's home, while it lives.
class ShadowedCommands {
  public:
    ShadowedCommands();
    ~ShadowedCommands();

  private:
    std::string path_;
    std::filesystem::path cwd_;
};

// Paths new in the sandbox that are neither under one of `allowed` nor a folder on the way to one (mkdir -p
// makes each folder its path names: "a/tmp/../etc" makes a/tmp too).
std::vector<std::string> escapedPaths(const std::set<std::filesystem::path>& before,
                                      const std::vector<std::filesystem::path>& allowed);

// Removes what is new in the sandbox (a launch's folders) but the sweep's store: the next launch's comparison
// reads a small tree.
void removeNew(const std::set<std::filesystem::path>& before);

// A value for a path that is written to, placed in the sandbox: an absolute one under sandbox/root, a
// relative one relative to the sandbox's home (where commands run).
std::string placed(const std::string& path);

// ---- Payloads and the report ------------------------------------------------------------------------------

struct Payload {
    std::string label;
    std::string text;
};

// Every payload of the sweep, the canary's path in those that would run a command.
const std::vector<Payload>& payloads();

// A row of the report (SCALEBENCH_INJECTION_REPORT): what `p` got in `field`.
void note(const Payload& p, const std::string& field, const std::string& outcome, const std::string& detail);

// ---- Plans and the store ----------------------------------------------------------------------------------

// A plan of one run with `line` in its [[run]] table (or at the top with `top`), and the line it is on.
std::pair<std::string, int> planWith(const std::string& line, bool top = false,
                                     const std::string& workload = "resnet20");

// Refused naming the key; where the TOML itself cannot be read (there is no key yet to name), refused as
// not valid TOML at the key's line. The message, else "".
std::string refusal(const std::function<void()>& parse, const std::string& key, int line);

// The store every plan and cluster of the sweep goes into, and what its schema was at the start.
struct SweepStore {
    std::filesystem::path file = sandbox().folder.path / "store" / "sessions.db";
    SessionStore store;
    std::string schema;
    // Every table's and index's CREATE statement.
    static std::string schemaOf(const std::filesystem::path& file);
    SweepStore();
};

SweepStore& sweepStore();

// ---- Launches ---------------------------------------------------------------------------------------------

// The run through the real SessionRunner on this machine (LocalTransport, LocalScheduler, mpirun a recorder):
// what mpirun was given, the stored run, and the command stored for it run again by /bin/sh.
struct LocalLaunch {
    std::vector<std::string> argv, replayed;
    RunRow row;
    SessionRow session;
    std::vector<std::string> escaped;
};

LocalLaunch launchHere(const RunPlan& plan, const std::filesystem::path& out_dir, const std::string& engine);

// The words after `option` in argv.
std::string after(const std::vector<std::string>& argv, const std::string& option);

// A cluster of the sweep: every job's files under the sandbox.
ClusterSettings sweepCluster();

// The job through the real SlurmScheduler over LocalTransport: sbatch (a recorder) runs the script with the
// real bash; what srun was given and the variables it saw.
struct SlurmLaunch {
    std::string error; // submit's or poll's refusal
    std::vector<std::string> srun;
    std::optional<std::string> injected, nccl_injected;
    std::string script;
    std::vector<std::string> escaped;
    bool canary = false;
};

SlurmLaunch launchOnSlurm(const ClusterSettings& cluster, const RunSpec& run);

} // namespace scalebench::injection
