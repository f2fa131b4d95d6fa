// Where the console finds what it ships (the engine's sources, the example plans): the installed data folder
// beside its executable (BINDIR/../share/scalebench), else the source tree it was built from.
#pragma once

#include <filesystem>
#include <optional>

namespace scalebench {

// This program's executable (/proc/self/exe); empty where that cannot be read.
std::filesystem::path runningExecutable();

// The data folder of an installed `executable` (BINDIR/../share/scalebench, as GNUInstallDirs lays it out)
// when it holds the engine's sources; std::nullopt for an executable in a build tree.
std::optional<std::filesystem::path> installedDataFolder(const std::filesystem::path& executable);

// The engine's sources that are built on this machine or deployed to a cluster (CMakeLists.txt, cmake/,
// protocol/, trainers/): DATA/engine-src of an installed executable, else `source_tree`.
std::filesystem::path shippedEngineSources(const std::filesystem::path& executable,
                                           const std::filesystem::path& source_tree);

// The example plans (quickstart.toml, ...): DATA/plans of an installed executable, else
// `source_tree`/resources/plans.
std::filesystem::path shippedPlans(const std::filesystem::path& executable,
                                   const std::filesystem::path& source_tree);

// This program's engine sources and example plans: the two above for runningExecutable() and the source tree
// it was built from.
std::filesystem::path ownEngineSources();
std::filesystem::path ownExamplePlans();

} // namespace scalebench
