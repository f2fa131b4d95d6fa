// Where the console finds what it ships: the installed data folder beside its executable, else the source
// tree.
#include "install_layout.h"

namespace scalebench {

std::filesystem::path runningExecutable() {
    std::error_code error;
    auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self;
}

std::optional<std::filesystem::path> installedDataFolder(const std::filesystem::path& executable) {
    if (executable.empty()) return std::nullopt;
    // SCALEBENCH_DATA_FROM_BIN: CMAKE_INSTALL_DATADIR/scalebench relative to CMAKE_INSTALL_BINDIR
    // ("../share/scalebench"), so that the prefix may change at install time.
    const auto data = executable.parent_path() / SCALEBENCH_DATA_FROM_BIN;
    std::error_code error;
    if (!std::filesystem::is_regular_file(data / "engine-src" / "CMakeLists.txt", error)) return std::nullopt;
    return std::filesystem::weakly_canonical(data, error);
}

std::filesystem::path shippedEngineSources(const std::filesystem::path& executable,
                                           const std::filesystem::path& source_tree) {
    if (const auto data = installedDataFolder(executable)) return *data / "engine-src";
    return source_tree;
}

std::filesystem::path shippedPlans(const std::filesystem::path& executable,
                                   const std::filesystem::path& source_tree) {
    if (const auto data = installedDataFolder(executable)) return *data / "plans";
    return source_tree / "resources" / "plans";
}

std::filesystem::path ownEngineSources() {
    return shippedEngineSources(runningExecutable(), SCALEBENCH_SOURCE_DIR);
}

std::filesystem::path ownExamplePlans() {
    return shippedPlans(runningExecutable(), SCALEBENCH_SOURCE_DIR);
}

} // namespace scalebench
