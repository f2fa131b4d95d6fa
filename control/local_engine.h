// The engine of this machine's runs: the one beside scalebench or on PATH, else built on first use from the
// shipped sources into the user's cache, the way a cluster builds it, and reused while the sources are the
// same.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace scalebench {

// How this machine builds its engine where it has none.
struct LocalEngineBuild {
    std::filesystem::path
        sources; // CMakeLists.txt, cmake/, protocol/, trainers/ (ConsoleOptions::engine_sources)
    std::filesystem::path cache; // its builds: CACHE/engine/HASH/src/build/release/trainers/scalebench-engine
    std::string torch_python;    // a Python whose torch package gives LibTorch (a name on PATH, or a path)
    std::chrono::seconds timeout = std::chrono::seconds(3600);
};

// $SCALEBENCH_TORCH_PYTHON, else "python3".
std::string defaultTorchPython();

// $XDG_CACHE_HOME/scalebench, else ~/.cache/scalebench.
std::filesystem::path engineCacheFolder();

// Whether `engine` is an executable: a path, or a name that PATH has.
bool engineFound(const std::string& engine);

// `engine` where it is a path (used as it is, found or not) or a name PATH has; else the build of
// `build.sources` in `build.cache`: reused when a build of the same sources (by hash) is there, otherwise
// built now by a job on this machine (mpirun, one rank) exactly as EngineDeployment builds it on a cluster,
// with its progress told to `progress`. Throws TransportError where `build.torch_python` has no torch package
// (saying how to get one), or the build fails (with its log's tail).
std::string localEngine(const std::string& engine, const LocalEngineBuild& build,
                        const std::function<void(const std::string&)>& progress);

// What localEngine() would do, for a dry run: "" where `engine` is found; else the build's hash and folder in
// the cache, and that it is built there already or the command of the job that would build it.
std::string localEngineBuildPlan(const std::string& engine, const LocalEngineBuild& build);

} // namespace scalebench
