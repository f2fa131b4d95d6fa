// Specification of a run's record: what a run was, every setting it ran with, read back as it was.
#include "run_record.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace scalebench;

namespace {
// Every shipped plan's runs: engine workloads, sweeps and command runs, with env and placement.
std::vector<RunSpec> shippedRuns() {
    std::vector<RunSpec> runs;
    const auto plans = std::filesystem::path(SCALEBENCH_SOURCE_DIR) / "resources/plans";
    for (const auto& entry : std::filesystem::recursive_directory_iterator(plans)) {
        if (entry.path().extension() != ".toml") continue;
        for (RunSpec& spec : expandPlan(parsePlanFile(entry.path())))
            runs.push_back(std::move(spec));
    }
    return runs;
}

RunSpec everyConsoleSetting() {
    RunSpec spec;
    spec.name = "osu-n4-r2";
    spec.ranks = 4;
    spec.repeat = 2;
    spec.ranks_per_node = 2;
    spec.nodes = 2;
    spec.environment = {{"NCCL_DEBUG", "INFO"}};
    spec.group.workload = "osu_allreduce";
    spec.group.ranks = {2, 4};
    spec.group.batch_per_rank_by_ranks = {48, 24};
    spec.group.gpus_per_node = 2;
    spec.group.mllog = true;
    spec.group.exclude_nodes = {"node7"};
    spec.group.env = {{"NCCL_DEBUG", "INFO"}};
    spec.group.command = {
        {"osu_allreduce", "-m", "8:1048576"}, "osu", "out.txt", "nvcr.io/x:1", {"/a:/b"}, "osu"};
    return spec;
}
} // namespace

TEST_CASE("every shipped plan's runs read back from their records as they were", "[core][run-record]") {
    const std::vector<RunSpec> runs = shippedRuns();
    REQUIRE(runs.size() > 50);
    for (const RunSpec& spec : runs) {
        INFO(spec.name);
        CHECK(readRunRecord(runRecordJson(spec)) == spec);
    }
    const RunSpec console = everyConsoleSetting();
    CHECK(readRunRecord(runRecordJson(console)) == console);
}

TEST_CASE("a record holds every key of the engine's option table, whatever today's defaults are",
          "[core][run-record]") {
    const auto record = nlohmann::json::parse(runRecordJson(RunSpec{}));
    CHECK(record.at("version") == kRunRecordVersion);
#define SCALEBENCH_EXPECT_KEY(name, ...) CHECK(record.at("group").contains(#name));
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_EXPECT_KEY)
#undef SCALEBENCH_EXPECT_KEY
}

TEST_CASE("a key a record lacks, added to the table after the run, reads as the engine's default",
          "[core][run-record]") {
    RunSpec spec;
    spec.group.steps = 7;
    spec.group.precision = "bf16";
    auto record = nlohmann::json::parse(runRecordJson(spec));
    record["group"].erase("precision");
    const RunSpec read = readRunRecord(record.dump());
    CHECK(read.group.steps == 7);
    CHECK(read.group.precision == engine_cli::defaults::precision);
}

TEST_CASE("a record that does not read is named, never guessed at", "[core][run-record]") {
    auto record = nlohmann::json::parse(runRecordJson(RunSpec{}));
    CHECK_THROWS_WITH(readRunRecord("{not json"), "the run's record is not a JSON object");
    record["version"] = kRunRecordVersion + 1;
    CHECK_THROWS_WITH(readRunRecord(record.dump()),
                      Catch::Contains("has version 2; this scalebench reads version 1"));
    record["version"] = kRunRecordVersion;
    record["group"]["steps"] = "many";
    CHECK_THROWS_WITH(readRunRecord(record.dump()), "'steps' is \"many\", not a value of its type");
    record.erase("group");
    CHECK_THROWS_WITH(readRunRecord(record.dump()), "the run's record has no 'group'");
}
