// Specification of reading a store an older release wrote: tests/data/stores/7d9476d.sqlite (schema 9,
// written by 7d9476d's console: two runs of fixture-plan.toml and an MLLOG import; make-fixture.sh). Opened
// today it is migrated, every run of a plan gets its record, and `compare` prints what that release printed.
#include "batch_command.h"
#include "console_options.h"
#include "run_plan.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace scalebench;

namespace {
const std::filesystem::path kStores = std::filesystem::path(SCALEBENCH_SOURCE_DIR) / "tests/data/stores";

std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

TEST_CASE("a store written by 7d9476d opens migrated, each planned run with its record and every figure kept",
          "[core][store][fixture]") {
    TemporaryFolder folder;
    const auto file = folder.path / "old.sqlite";
    std::filesystem::copy_file(kStores / "7d9476d.sqlite", file);
    SessionStore store(file);
    CHECK(store.schemaVersion() == SessionStore::kSchemaVersion);

    const auto sessions = store.sessions();
    REQUIRE(sessions.size() == 3);
    CHECK(sessions[0].status == SessionStatus::Ok);
    CHECK(sessions[2].name == "mllog");
    const std::vector<RunSpec> planned = expandPlan(parsePlanFile(kStores / "fixture-plan.toml"));
    for (const std::int64_t session : {1, 2}) {
        const auto runs = store.runs(session);
        REQUIRE(runs.size() == planned.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            INFO("session " << session << ", run " << runs[i].name);
            CHECK(runs[i].status == RunStatus::Ok);
            REQUIRE(runs[i].spec.has_value());
            CHECK(runs[i].spec->name == planned[i].name);
            CHECK(runs[i].spec->group.workload == planned[i].group.workload);
            CHECK(runs[i].spec_problem.empty());
        }
        CHECK(runs[0].spec->group.lr == (session == 1 ? 0.05 : 0.1));
        for (const RunResult& r : loadSessionResults(store, session)) {
            CHECK(r.plan_problem.empty());
            if (r.workload == "resnet20") CHECK(r.figures.samples_per_s > 0);
        }
    }
    for (const RunRow& imported : store.runs(3)) {
        CHECK_FALSE(imported.spec.has_value()); // an import ran no plan: nothing is made up
        CHECK(imported.spec_problem.empty());
    }
}

TEST_CASE("compare of a store written by 7d9476d prints what 7d9476d printed", "[core][store][fixture]") {
    TemporaryFolder folder;
    const auto file = folder.path / "old.sqlite";
    std::filesystem::copy_file(kStores / "7d9476d.sqlite", file);
    ConsoleOptions options;
    options.db = file;
    options.compare_a = 1;
    options.compare_b = 2;
    std::ostringstream out, err;
    CHECK(compareSessions(options, out, err) == 0);
    CHECK(err.str().empty());
    CHECK(out.str() == fileText(kStores / "7d9476d-compare.txt"));
}
