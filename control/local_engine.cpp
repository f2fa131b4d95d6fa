// The engine of this machine's runs: found beside scalebench or on PATH, else built on first use into the
// cache.
#include "local_engine.h"

#include "cluster_settings.h"
#include "engine_deployment.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "scratch_folder.h"
#include "shell_words.h"

#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace scalebench {
namespace {

// The last line of `text` that says something ("ModuleNotFoundError: No module named 'torch'").
std::string lastLine(const std::string& text) {
    std::istringstream in(text);
    std::string last;
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t") != std::string::npos) last = line;
    return last;
}

// Throws TransportError, saying what to do, unless `python` runs and has a torch package with LibTorch (what
// cmake/LibTorch.cmake looks for: torch/lib/libtorch_cpu.so, found without importing torch).
void requireTorch(LocalTransport& here, const std::string& python) {
    const std::string quoted = shellQuote(python);
    const CommandResult found =
        here.run("command -v " + quoted + " && " + quoted +
                 " -c \"import importlib.util as u, os, sys; s = u.find_spec('torch'); "
                 "sys.exit(0 if s and os.path.isfile(os.path.join(os.path.dirname(s.origin), 'lib', "
                 "'libtorch_cpu.so')) "
                 "else 'No module named torch with LibTorch (torch/lib/libtorch_cpu.so)')\"");
    if (found.exit_status == 0) return;
    const std::string why = found.out.empty() ? "there is no such program" : lastLine(found.err);
    throw TransportError(
        "no engine beside scalebench or on PATH, and it cannot be built: the engine is built on first use "
        "against the torch package of a Python (LibTorch is inside it), and '" +
        python + "' has no torch package (" + why +
        "). Install torch into a virtual environment (python3 -m venv ~/.local/share/scalebench/venv && "
        "~/.local/share/scalebench/venv/bin/pip install torch) and name its Python with --torch-python or "
        "SCALEBENCH_TORCH_PYTHON, or name a built engine with --engine");
}

// This machine as a cluster whose remote root is the cache: the same packing, hash, build job and reuse.
ClusterSettings buildMachine(const LocalEngineBuild& build) {
    ClusterSettings here = localMachine();
    here.remote_root = std::filesystem::absolute(build.cache).string();
    here.torch_python = build.torch_python;
    return here;
}

// An engine given as a path (--engine ./x, the one beside scalebench) is the user's: it is never built in its
// place, only a name that PATH lacks is.
bool usedAsGiven(const std::string& engine) {
    return engine.find('/') != std::string::npos || engineFound(engine);
}

void requireSources(const LocalEngineBuild& build) {
    if (!std::filesystem::exists(build.sources / "CMakeLists.txt"))
        throw TransportError(
            "no engine beside scalebench or on PATH, and no engine sources to build one in " +
            build.sources.string() + " (--engine-sources DIR, or --engine PATH)");
}

} // namespace

std::string defaultTorchPython() {
    const char* python = std::getenv("SCALEBENCH_TORCH_PYTHON");
    return python && *python ? python : "python3";
}

std::filesystem::path engineCacheFolder() {
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
        return std::filesystem::path(cache) / "scalebench";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "scalebench";
    return std::filesystem::temp_directory_path() / "scalebench-cache";
}

bool engineFound(const std::string& engine) {
    if (engine.empty()) return false;
    if (engine.find('/') != std::string::npos) return access(engine.c_str(), X_OK) == 0;
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "");
    for (std::string folder; std::getline(folders, folder, ':');)
        if (!folder.empty() && access((std::filesystem::path(folder) / engine).c_str(), X_OK) == 0)
            return true;
    return false;
}

std::string localEngine(const std::string& engine, const LocalEngineBuild& build,
                        const std::function<void(const std::string&)>& progress) {
    if (usedAsGiven(engine)) return engine;
    requireSources(build);
    std::filesystem::create_directories(build.cache);
    LocalTransport transport;
    LocalScheduler scheduler;
    EngineDeployment deployment(transport, scheduler, buildMachine(build), build.sources);
    // A build of these sources from an earlier run needs no Python: only a new build does.
    const ScratchFolder scratch("scalebench-engine-hash");
    const DeployedEngine built = deployment.plan(scratch.path()).target;
    if (access(built.engine.c_str(), X_OK) == 0) {
        progress("engine " + built.hash + ": already built in " + built.folder);
        return built.engine;
    }
    requireTorch(transport, build.torch_python);
    progress("engine: none beside scalebench or on PATH: building it from " + build.sources.string() +
             " against the torch of " + build.torch_python + " into " + build.cache.string() +
             " (once per version of its sources: minutes)");
    return deployment.ensure(progress, build.timeout).engine;
}

std::string localEngineBuildPlan(const std::string& engine, const LocalEngineBuild& build) {
    if (usedAsGiven(engine)) return "";
    requireSources(build);
    LocalTransport transport;
    LocalScheduler scheduler;
    const ScratchFolder scratch("scalebench-engine-hash");
    const EngineBuildPlan plan =
        EngineDeployment(transport, scheduler, buildMachine(build), build.sources).plan(scratch.path());
    const std::string head = "engine " + plan.target.hash +
                             ": none beside scalebench or on PATH: built on first use from " +
                             build.sources.string() + " into " + plan.target.folder;
    if (access(plan.target.engine.c_str(), X_OK) == 0) return head + " (built there already)\n";
    return head + " against the torch of " + build.torch_python + ", by\n  " +
           scheduler.commandLine(plan.job) + "\n";
}

} // namespace scalebench
