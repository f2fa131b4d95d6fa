// The engine of this machine's runs where none is beside scalebench or on PATH: built on first use from the
// shipped sources into the user's cache by a job on this machine (as a cluster builds it), reused by hash,
// and a Python without torch named in the error with what to do.
#include "file_text.h"
#include "install_layout.h"
#include "local_engine.h"
#include "temporary_folder.h"
#include "transport.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

using namespace scalebench;

namespace {

void writeFile(const std::filesystem::path& path, const std::string& text, bool executable = false) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    if (executable)
        std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add);
}

// Engine sources as EngineDeployment packs them: CMakeLists.txt, cmake/, protocol/, trainers/ (their content
// gives the hash; nothing here compiles).
std::filesystem::path engineSources(const std::filesystem::path& folder, const std::string& version = "1") {
    const auto sources = folder / "engine-src";
    writeFile(sources / "CMakeLists.txt", "project(scalebench) # " + version + "\n");
    writeFile(sources / "cmake" / "LibTorch.cmake", "# LibTorch\n");
    writeFile(sources / "protocol" / "engine_option_table.h", "// options\n");
    writeFile(sources / "trainers" / "main.cpp", "int main() {}\n");
    return sources;
}

// A Python that has torch (exit 0), or one that says what a Python without torch says.
std::string python(const std::filesystem::path& folder, bool has_torch) {
    const auto path = folder / (has_torch ? "python-with-torch" : "python-without-torch");
    writeFile(path,
              has_torch ? "#!/bin/sh\nexit 0\n"
                        : "#!/bin/sh\necho 'Traceback (most recent call last):' >&2\n"
                          "echo \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n",
              true);
    return path.string();
}

// PATH with `folder` first, for as long as it lives.
struct PathWith {
    std::string before;
    explicit PathWith(const std::filesystem::path& folder)
        : before(std::getenv("PATH") ? std::getenv("PATH") : "") {
        setenv("PATH", (folder.string() + ":" + before).c_str(), 1);
    }
    ~PathWith() { setenv("PATH", before.c_str(), 1); }
};

// A `cmake` that configures nothing and whose --build writes BUILD/trainers/scalebench-engine: the build
// job's own steps, without LibTorch's minutes.
void fakeCMake(const std::filesystem::path& bin) {
    writeFile(bin / "cmake",
              "#!/bin/sh\n"
              "if [ \"$1\" = --build ]; then\n"
              "  mkdir -p \"$2/trainers\" && printf '#!/bin/sh\\necho engine\\n' > "
              "\"$2/trainers/scalebench-engine\"\n"
              "  chmod +x \"$2/trainers/scalebench-engine\"; echo '[100%] Built target scalebench-engine'\n"
              "else\n"
              "  echo \"$@\" > configured-with.txt; echo '-- Configuring done'\n"
              "fi\n",
              true);
}

std::vector<std::string> told;
const auto record = [](const std::string& line) { told.push_back(line); };

bool toldContaining(const std::string& part) {
    for (const auto& line : told)
        if (line.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("local engine: an engine beside scalebench, named by path or on PATH is used as it is",
          "[control][first-use]") {
    const TemporaryFolder folder;
    writeFile(folder.path / "bin" / "my-engine", "#!/bin/sh\n", true);
    const LocalEngineBuild build{folder.path / "no-sources", folder.path / "cache", "no-such-python"};
    told.clear();
    CHECK(localEngine((folder.path / "bin" / "my-engine").string(), build, record) ==
          (folder.path / "bin" / "my-engine").string());
    // A path is the user's choice, also where nothing is there: its run fails saying so, nothing is built.
    CHECK(localEngine((folder.path / "no-engine").string(), build, record) ==
          (folder.path / "no-engine").string());
    const PathWith path(folder.path / "bin");
    CHECK(localEngine("my-engine", build, record) == "my-engine");
    CHECK(told.empty());
    CHECK(localEngineBuildPlan("my-engine", build).empty());
}

TEST_CASE(
    "local engine: the dry run shows the build a first use would run: the cluster's, with this Python and "
    "no CUDA, into the cache by the sources' hash",
    "[control][first-use]") {
    const TemporaryFolder folder;
    const LocalEngineBuild build{engineSources(folder.path), folder.path / "cache", "/opt/venv/bin/python"};
    const std::string plan = localEngineBuildPlan("scalebench-engine-nowhere", build);
    INFO(plan);
    CHECK_THAT(plan, Catch::StartsWith("engine "));
    CHECK_THAT(plan, Catch::Contains("built on first use from " + build.sources.string()));
    CHECK_THAT(plan, Catch::Contains(" into " + (folder.path / "cache" / "engine").string() + "/"));
    CHECK_THAT(plan, Catch::Contains("mpirun -np 1"));
    CHECK_THAT(
        plan,
        Catch::Contains(
            "cmake -S . -B build/release $generator -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_ENGINE_ONLY=ON"));
    CHECK_THAT(plan, Catch::Contains("-DSCALEBENCH_CUDA=OFF"));
    CHECK_THAT(plan, Catch::Contains("/opt/venv/bin/python"));
    // Other sources, another hash: another folder.
    const TemporaryFolder other;
    const LocalEngineBuild changed{engineSources(other.path, "2"), folder.path / "cache",
                                   "/opt/venv/bin/python"};
    CHECK(localEngineBuildPlan("scalebench-engine-nowhere", changed).substr(0, 23) != plan.substr(0, 23));
}

TEST_CASE("local engine: a build of the same sources in the cache is reused, and needs no Python",
          "[control][first-use]") {
    const TemporaryFolder folder;
    const LocalEngineBuild build{engineSources(folder.path), folder.path / "cache", "no-such-python"};
    // The folder the plan names for these sources, with an engine in it as an earlier first use left it.
    const std::string plan = localEngineBuildPlan("scalebench-engine-nowhere", build);
    const std::string hash = plan.substr(7, 16); // "engine HASH: ..."
    const auto engine = folder.path / "cache" / "engine" / hash / "src" / "build" / "release" / "trainers" /
                        "scalebench-engine";
    writeFile(engine, "#!/bin/sh\n", true);
    told.clear();
    CHECK(localEngine("scalebench-engine-nowhere", build, record) == engine.string());
    CHECK(toldContaining("engine " + hash + ": already built in "));
    CHECK_THAT(localEngineBuildPlan("scalebench-engine-nowhere", build),
               Catch::Contains("(built there already)"));
}

TEST_CASE("local engine: a Python without torch is named, with what to do, before anything is built",
          "[control][first-use]") {
    const TemporaryFolder folder;
    for (const std::string& missing :
         {python(folder.path, false), (folder.path / "no-such-python").string()}) {
        const LocalEngineBuild build{engineSources(folder.path), folder.path / "cache", missing};
        INFO(missing);
        try {
            localEngine("scalebench-engine-nowhere", build, record);
            FAIL("no error");
        } catch (const TransportError& e) {
            const std::string what = e.what();
            CHECK_THAT(what, Catch::Contains("'" + missing + "' has no torch package"));
            CHECK_THAT(what, Catch::Contains("pip install torch"));
            CHECK_THAT(what, Catch::Contains("--torch-python"));
            CHECK_THAT(what, Catch::Contains("SCALEBENCH_TORCH_PYTHON"));
        }
        CHECK_FALSE(std::filesystem::exists(folder.path / "cache" / "engine"));
    }
    CHECK_THROWS_WITH(localEngine("scalebench-engine-nowhere",
                                  {folder.path / "nothing", folder.path / "cache", python(folder.path, true)},
                                  record),
                      Catch::Contains("no engine sources to build one in"));
}

TEST_CASE(
    "local engine: the first use builds it by a job on this machine, telling its progress, and the next use "
    "finds it",
    "[control][first-use][integration]") {
    const TemporaryFolder folder;
    fakeCMake(folder.path / "bin");
    const PathWith path(folder.path / "bin");
    const LocalEngineBuild build{engineSources(folder.path), folder.path / "cache",
                                 python(folder.path, true)};
    told.clear();
    const std::string engine = localEngine("scalebench-engine-nowhere", build, record);
    // CACHE/engine/HASH/src/build/release/trainers/scalebench-engine: the job's folder is HASH.
    const auto folder_of_build =
        std::filesystem::path(engine).parent_path().parent_path().parent_path().parent_path().parent_path();
    INFO(fileText(folder_of_build / "stderr.log"));
    CHECK_THAT(engine, Catch::StartsWith((folder.path / "cache" / "engine").string()));
    CHECK_THAT(engine, Catch::EndsWith("/src/build/release/trainers/scalebench-engine"));
    CHECK(toldContaining("building it from " + build.sources.string()));
    CHECK(toldContaining("submitted (mpirun builds the engine on this machine: minutes)"));
    CHECK(toldContaining(": built in "));
    CHECK_THAT(fileText(folder_of_build / "src" / "configured-with.txt"),
               Catch::Contains("-DSCALEBENCH_PYTHON=" + build.torch_python));
    told.clear();
    CHECK(localEngine("scalebench-engine-nowhere", build, record) == engine);
    CHECK(toldContaining("already built"));
}

TEST_CASE(
    "install layout: an installed scalebench finds its data in BINDIR/../share/scalebench, a built one in "
    "the source tree",
    "[control][install]") {
    const TemporaryFolder prefix;
    const auto installed = prefix.path / "bin" / "scalebench";
    const auto source_tree = std::filesystem::path("/src/scalebench");
    writeFile(installed, "#!/bin/sh\n", true);
    CHECK_FALSE(installedDataFolder(installed));
    CHECK(shippedEngineSources(installed, source_tree) == source_tree);
    CHECK(shippedPlans(installed, source_tree) == source_tree / "resources" / "plans");

    writeFile(prefix.path / "share" / "scalebench" / "engine-src" / "CMakeLists.txt",
              "project(scalebench)\n");
    REQUIRE(installedDataFolder(installed));
    CHECK(*installedDataFolder(installed) ==
          std::filesystem::canonical(prefix.path) / "share" / "scalebench");
    CHECK(shippedEngineSources(installed, source_tree) ==
          std::filesystem::canonical(prefix.path) / "share" / "scalebench" / "engine-src");
    CHECK(shippedPlans(installed, source_tree) ==
          std::filesystem::canonical(prefix.path) / "share" / "scalebench" / "plans");
}
