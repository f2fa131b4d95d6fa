// Specification of what runs cost: wall time x ranks x the cluster's price per GPU-hour, from the session's
// stored cluster settings; the model's inputs carry the same price.
#include "cluster_settings.h"
#include "projection_fixture.h"
#include "run_cost.h"
#include "session_projection.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

ClusterSettings pricedCluster(double price, const std::string& currency) {
    ClusterSettings c;
    c.name = "fixture-cluster";
    c.host = "head.example.org";
    c.tasks_per_node = 64;
    c.price_per_gpu_hour = price;
    c.currency = currency;
    return c;
}

RunResult runOf(const std::string& name, int ranks, std::optional<double> wall_s) {
    RunResult r;
    r.name = name;
    r.ranks = ranks;
    r.status = RunStatus::Ok;
    r.wall_s = wall_s;
    return r;
}

} // namespace

TEST_CASE("a run costs its ranks x wall time in hours x the price per GPU-hour", "[core][cost]") {
    const GpuHourPrice price{3.0, "EUR"};
    CHECK(runGpuHours(runOf("a", 8, 1800)).value() == Approx(4));
    CHECK(runCost(runOf("a", 8, 1800), price).value() == Approx(12));
    CHECK(runCost(runOf("cpu", 2, 3600), price).value() == Approx(6)); // CPU runs: a rank is a "GPU"
    CHECK_FALSE(runCost(runOf("never started", 8, std::nullopt), price));
    CHECK_FALSE(runCost(runOf("a", 8, 1800), GpuHourPrice{}));

    const std::string table =
        formatRunCosts({runOf("a", 8, 1800), runOf("b", 16, 900), runOf("c", 4, std::nullopt)}, price);
    CHECK_THAT(table, Catch::Contains("cost EUR") && Catch::Contains("GPU-h") &&
                          Catch::Contains("3.00 EUR per GPU-hour") && Catch::Contains("a GPU is a rank"));
    CHECK_THAT(table, Catch::Matches(R"((.|\n)*\ntotal +8\.0000 +24\.00\n(.|\n)*)"));
    CHECK(formatRunCosts({runOf("a", 8, 1800)}, GpuHourPrice{}).empty()); // no price: no table
}

TEST_CASE("a run that reached its target costs ranks x time to target to train", "[core][cost]") {
    const GpuHourPrice price{2.0, "USD"};
    RunResult reached = runOf("reached", 8, 3600);
    reached.time_to_target_s = 900;
    reached.target_reached = true;
    CHECK(runCostToTrain(reached, price).value() == Approx(4)); // 8 x 0.25 h x 2
    RunResult missed = runOf("missed", 8, 3600);
    missed.time_to_target_s = 900; // a target's time without reaching it does not count
    CHECK_FALSE(runCostToTrain(missed, price));
    RunResult mlperf = runOf("bert", 64, std::nullopt);
    mlperf.mlperf_time_to_train_min = 1.5;
    mlperf.mlperf_status = "success";
    CHECK(runCostToTrain(mlperf, price).value() == Approx(64 * 1.5 / 60 * 2));
    CHECK_FALSE(runCostToTrain(reached, GpuHourPrice{}));
    const std::string table = formatRunCosts({reached, runOf("plain", 2, 60)}, price);
    CHECK_THAT(table, Catch::Contains("to train USD") && Catch::Contains("4.00\n") &&
                          Catch::Contains("ranks x the time to the run's target"));
    CHECK_THAT(formatRunCosts({runOf("plain", 2, 60)}, price), !Catch::Contains("to train"));
}

TEST_CASE("a stored session's runs get their wall time and the price of the cluster they ran on",
          "[core][cost]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");

    SECTION("on a cluster with a price") {
        const SessionRow session =
            *store.session(storeProjectionFixture(store, clusterToJson(pricedCluster(2.5, "CHF"))));
        const GpuHourPrice price = sessionPrice(session);
        CHECK(price.per_gpu_hour == 2.5);
        CHECK(price.currency == "CHF");
        const auto results = loadSessionResults(store, session.id);
        REQUIRE(results.size() == 6);
        for (const RunResult& r : results) {
            INFO(r.name);
            REQUIRE(r.wall_s);
            CHECK(*r.wall_s > 0);
            CHECK(runCost(r, price).value() == Approx(r.ranks * *r.wall_s / 3600 * 2.5));
        }
        // The summary's wall_s, the engine's own (resnet20-fashion-mnist-n1-r1.jsonl: 8.21 s).
        CHECK(*results.front().wall_s == Approx(8.2146).epsilon(1e-4));
        CHECK_THAT(formatRunCosts(results, price), Catch::Contains("cost CHF"));

        // The performance model's inputs carry the price: cost to train in the cluster's currency.
        const auto series = sessionModelInputs(store, session);
        REQUIRE(series.size() == 1);
        CHECK(series[0].inputs.price_per_gpu_hour == 2.5);
        CHECK(series[0].inputs.currency == "CHF");
        CHECK(series[0].inputs.ranks_per_node == 64);
    }
    SECTION("on this machine: no price") {
        const SessionRow session = *store.session(storeProjectionFixture(store));
        CHECK(sessionPrice(session).per_gpu_hour == 0);
        CHECK(sessionModelInputs(store, session)[0].inputs.price_per_gpu_hour == 0);
        CHECK(formatRunCosts(loadSessionResults(store, session.id), sessionPrice(session)).empty());
    }
    SECTION("a run without a summary: from its start to its end in the store") {
        const std::int64_t session = store.createSession("s", "", "local");
        const std::int64_t run = store.createRun(session, {"r", "resnet20", "cifar10", 2, 1, "mpirun ..."});
        store.startRun(run, "1234");
        store.finishRun(run, {RunStatus::Failed, "killed", 0, "vm"});
        const auto results = loadSessionResults(store, session);
        REQUIRE(results.size() == 1);
        REQUIRE(results[0].wall_s);
        CHECK(*results[0].wall_s >= 0);
    }
}

TEST_CASE("seconds between two times the store wrote", "[core][cost]") {
    CHECK(storedSeconds("2026-11-26T14:45:32Z", "2026-11-26T16:00:02Z").value() == 4470);
    CHECK(storedSeconds("2026-12-31T23:59:59Z", "2027-01-01T00:00:01Z").value() == 2);
    CHECK_FALSE(storedSeconds("2026-11-26T14:45:32Z", "")); // not finished
    CHECK_FALSE(storedSeconds("", "2026-11-26T14:45:32Z"));
    CHECK_FALSE(storedSeconds("2026-11-26T14:45:32Z", "2026-11-26T14:45:31Z"));
    CHECK_FALSE(storedSeconds("yesterday", "2026-11-26T14:45:31Z"));
}
