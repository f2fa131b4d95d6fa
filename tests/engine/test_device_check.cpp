// The engine's device self-check (--check-device) under real mpirun on the CPU, the half a machine without a
// GPU can run: the fused kernels against their formulas on the device, the same seeded steps twice with
// bit-identical losses, a device_check record with the verdict, and the NCCL version in the header. (Prefetch
// against synchronous steps and GPU against CPU run only on a GPU: bench/device/run.sh.)
#include "engine_run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using namespace scalebench;

namespace {

std::vector<nlohmann::json> rawRecords(const TemporaryFolder& folder, const std::string& type) {
    std::istringstream lines(fileText(folder.path / "metrics.jsonl"));
    std::vector<nlohmann::json> out;
    for (std::string line; std::getline(lines, line);)
        if (auto j = nlohmann::json::parse(line); j.at("type") == type) out.push_back(j);
    return out;
}

} // namespace

TEST_CASE("the device self-check passes on the CPU for ResNet-20 and Llama, naming every check it ran",
          "[integration][engine]") {
    const std::vector<std::pair<std::string, std::vector<std::string>>> workloads = {
        {"resnet20", {"--workload", "resnet20", "--dataset", "synthetic-cifar", "--batch-per-rank", "16"}},
        {"llama",
         {"--workload", "llama", "--dataset", "synthetic-tokens", "--preset", "small", "--seq-len", "32",
          "--batch-per-rank", "2"}}};
    for (const auto& [name, arguments] : workloads) {
        INFO(name);
        TemporaryFolder folder;
        std::vector<std::string> argv = {"--check-device", "yes", "--device",           "cpu",
                                         "--steps",        "3",   "--threads-per-rank", "1"};
        argv.insert(argv.end(), arguments.begin(), arguments.end());
        const EngineRun run = runEngine(folder, 1, argv);
        INFO(run.output);
        REQUIRE(run.status == 0);
        const auto headers = rawRecords(folder, "header");
        REQUIRE(headers.size() == 1);
        // The NCCL library the engine runs with, whatever the backend: "2.28.9", or null without NCCL.
        const auto& nccl = headers[0].at("nccl_version");
        CHECK((nccl.is_null() || std::regex_match(nccl.get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)"))));
        const auto verdicts = rawRecords(folder, "device_check");
        REQUIRE(verdicts.size() == 1);
        const auto& v = verdicts[0];
        CHECK(v.at("verdict") == "pass");
        CHECK(v.at("device") == "cpu");
        CHECK(v.at("steps") == 3);
        std::vector<std::string> names;
        for (const auto& c : v.at("checks")) {
            INFO(c.dump());
            CHECK(c.at("passed") == true);
            names.push_back(c.at("name"));
        }
        // On the CPU: the four fused kernels and the repeat; prefetch and GPU-against-CPU need a GPU.
        REQUIRE(names.size() == 5);
        CHECK_THAT(names[0], Catch::StartsWith("rms_norm"));
        CHECK_THAT(names[2], Catch::StartsWith("adamw"));
        CHECK_THAT(names[4], Catch::StartsWith("the same seeded steps twice"));
        const auto& repeat = v.at("checks")[4];
        CHECK(repeat.at("losses").size() == 3);
        CHECK(repeat.at("losses") == repeat.at("again"));
    }
}

TEST_CASE("the device self-check asked for a GPU where there is none stops naming the cause",
          "[integration][engine]") {
    if (std::filesystem::exists("/dev/nvidiactl")) return; // a machine with a GPU runs bench/device/run.sh
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 1,
                                    {"--check-device", "yes", "--device", "cuda", "--workload", "resnet20",
                                     "--dataset", "synthetic-cifar", "--steps", "2"});
    INFO(run.output);
    CHECK(run.status != 0);
    CHECK_THAT(run.output, Catch::Contains("--device cuda"));
    CHECK(rawRecords(folder, "device_check").empty());
}
