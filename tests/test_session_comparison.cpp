// Specification of the comparison of two sessions: figures matched by workload, dataset and ranks with the
// difference in percent, and only the settings that differ.
#include "session_comparison.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

RunResult trainingRun(int ranks, double samples_per_s, double step_ms, std::optional<double> accuracy = 0.9) {
    RunResult r{"resnet20-n" + std::to_string(ranks), "resnet20", "fashion-mnist", ranks, 0, "ok", "", {}};
    r.figures.steady_steps = 20;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown = {step_ms / 1e3,       0.1 * step_ms / 1e3,  0.3 * step_ms / 1e3,
                           0.4 * step_ms / 1e3, 0.15 * step_ms / 1e3, 0.05 * step_ms / 1e3,
                           0.2 * step_ms / 1e3};
    r.figures.final_loss = 0.5;
    r.figures.final_eval = accuracy;
    return r;
}

RunResult sweepRun(int ranks, std::vector<double> busbw) {
    RunResult r{"sweep-n" + std::to_string(ranks), "allreduce-sweep", "none", ranks, 0, "ok", "", {}};
    std::int64_t bytes = 1024;
    for (double bw : busbw) {
        CollectiveRecord c;
        c.collective = "allreduce";
        c.dtype = "float32";
        c.bytes = bytes;
        c.ranks = ranks;
        c.busbw_gbps = bw;
        c.correct = true;
        r.collectives.push_back(c);
        bytes *= 4;
    }
    return r;
}

const FigureComparison& find(const std::vector<FigureComparison>& rows, const std::string& workload,
                             int ranks, const std::string& figure) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const FigureComparison& f) {
        return f.workload == workload && f.ranks == ranks && f.figure == figure;
    });
    REQUIRE(it != rows.end());
    return *it;
}

} // namespace

TEST_CASE(
    "compared figures give A, B and (B - A) / A in percent for runs matched by workload, dataset and ranks",
    "[core][comparison]") {
    // A: 1000 and 1800 samples/s at 1 and 2 ranks, two repeats at 2 ranks; B: 10% faster at 2 ranks.
    std::vector<RunResult> a = {trainingRun(1, 1000, 256), trainingRun(2, 1700, 300),
                                trainingRun(2, 1900, 270)};
    std::vector<RunResult> b = {trainingRun(1, 1000, 256), trainingRun(2, 1980, 250)};
    const auto rows = compareFigures(a, b);

    const auto& throughput = find(rows, "resnet20", 2, "samples/s");
    CHECK(*throughput.a == Approx(1800)); // mean over the two repeats
    CHECK(*throughput.b == Approx(1980));
    CHECK(*throughput.percent == Approx(10));
    CHECK(throughput.better == Better::Higher);

    const auto& step = find(rows, "resnet20", 2, "step time");
    CHECK(step.unit == "ms");
    CHECK(*step.a == Approx(285));
    CHECK(*step.percent == Approx((250.0 - 285) / 285 * 100));
    CHECK(step.better == Better::Lower);
    CHECK(*find(rows, "resnet20", 2, "exposed communication").a == Approx(0.15 * 285));
    CHECK(*find(rows, "resnet20", 2, "hidden communication").b == Approx(0.2 * 250));
    CHECK(find(rows, "resnet20", 2, "hidden communication").better == Better::Neither);

    // Speedup and efficiency within each session: S(2) = X(2) / X(1), E(2) = S(2) * 1 / 2.
    CHECK(*find(rows, "resnet20", 2, "speedup").a == Approx(1.8));
    CHECK(*find(rows, "resnet20", 2, "speedup").b == Approx(1.98));
    CHECK(*find(rows, "resnet20", 2, "efficiency").a == Approx(90));
    CHECK(*find(rows, "resnet20", 1, "efficiency").percent == Approx(0));
    CHECK(*find(rows, "resnet20", 2, "accuracy").a == Approx(90));
    CHECK(find(rows, "resnet20", 2, "final loss").better == Better::Lower);
}

TEST_CASE("a figure that is 0 in A or missing on one side has no percent and says why",
          "[core][comparison]") {
    std::vector<RunResult> a = {trainingRun(1, 1000, 256), trainingRun(4, 3000, 90)};
    a[0].figures.breakdown.comm_hidden_s = 0;
    std::vector<RunResult> b = {trainingRun(1, 1100, 240), trainingRun(8, 5000, 60)};
    const auto rows = compareFigures(a, b);

    const auto& hidden = find(rows, "resnet20", 1, "hidden communication");
    CHECK(*hidden.a == 0);
    CHECK_FALSE(hidden.percent);
    CHECK(hidden.note == "A is 0: percent undefined");
    CHECK(find(rows, "resnet20", 4, "samples/s").note == "only in A");
    CHECK_FALSE(find(rows, "resnet20", 4, "samples/s").b);
    CHECK(find(rows, "resnet20", 8, "samples/s").note == "only in B");
    CHECK(*find(rows, "resnet20", 8, "samples/s").b == 5000);

    // Failed runs give no figures.
    a.push_back(trainingRun(2, 500, 500));
    a.back().status = "failed";
    const auto with_failed = compareFigures(a, b);
    CHECK(std::none_of(with_failed.begin(), with_failed.end(),
                       [](const FigureComparison& f) { return f.ranks == 2; }));
}

TEST_CASE("collective sweeps are compared by their peak bus bandwidth", "[core][comparison]") {
    const auto rows =
        compareFigures({sweepRun(2, {0.5, 2.0, 4.0, 3.5})}, {sweepRun(2, {0.4, 2.5, 5.0, 4.9})});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].figure == "peak busbw mpi allreduce float32 sum");
    CHECK(rows[0].unit == "GB/s");
    CHECK(*rows[0].a == 4.0);
    CHECK(*rows[0].b == 5.0);
    CHECK(*rows[0].percent == Approx(25));
    CHECK(rows[0].better == Better::Higher);
}

TEST_CASE("JSON and TOML settings flatten to key paths", "[core][comparison]") {
    const auto json =
        flattenJson(R"({"host":"login1","port":22,"modules":["cuda/12","openmpi"],"gpu":{"per_node":4}})");
    CHECK(json.at("host") == "login1");
    CHECK(json.at("port") == "22");
    CHECK(json.at("modules[1]") == "openmpi");
    CHECK(json.at("gpu.per_node") == "4");
    CHECK(flattenJson("{oops").count("(unparsable)") == 1);

    const auto toml =
        flattenToml("name = \"q\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\nlr = 0.02\n");
    CHECK(toml.at("name") == "q");
    CHECK(toml.at("run[0].workload") == "resnet20");
    CHECK(toml.at("run[0].ranks[1]") == "2");
    CHECK(toml.at("run[0].lr") == "0.02");
    const auto broken = flattenToml("name = \n");
    REQUIRE(broken.count("(unparsable)") == 1);
    CHECK(broken.at("(unparsable)").starts_with("line 1"));
}

TEST_CASE("the settings comparison lists only keys that differ or exist on one side", "[core][comparison]") {
    ComparedSession a{"last week",
                      {},
                      {},
                      "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nsteps = 200\n",
                      R"({"host":"login1","partition":"gpu"})"};
    ComparedSession b{"tonight",
                      {},
                      {},
                      "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nsteps = 400\n",
                      R"({"host":"login1","partition":"gpu","account":"ml"})"};
    a.run_headers = {
        R"({"type":"header","ranks":1,"versions":{"libtorch":"2.10.0"},"hosts":[{"host":"n1","pid":11}],"unix_time":1})",
        R"({"type":"header","ranks":2,"versions":{"libtorch":"2.10.0"},"hosts":[{"host":"n1","pid":12},{"host":"n2","pid":13}],"unix_time":2})"};
    b.run_headers = {
        R"({"type":"header","ranks":1,"versions":{"libtorch":"2.11.0"},"hosts":[{"host":"n1","pid":21}],"unix_time":3})",
        R"({"type":"header","ranks":2,"versions":{"libtorch":"2.11.0"},"hosts":[{"host":"n1","pid":22},{"host":"n3","pid":23}],"unix_time":4})"};
    const auto diff = compareSettings(a, b);

    std::vector<std::string> keys;
    for (const auto& d : diff)
        keys.push_back(d.key);
    CHECK(keys == std::vector<std::string>{"cluster.account", "plan.run[0].steps", "run header.hosts[1].host",
                                           "run header.versions.libtorch"});
    CHECK_FALSE(diff[0].a);
    CHECK(*diff[0].b == "ml");
    CHECK(*diff[1].a == "200");
    CHECK(*diff[1].b == "400");
    CHECK(*diff[2].a == "n2");
    CHECK(*diff[3].b == "2.11.0");
    CHECK(compareSettings(a, a).empty());
}

TEST_CASE("a stored session loads for comparison with its results and run headers", "[core][comparison]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.sqlite");
    const auto session = store.createSession("nightly", "name = \"nightly\"", "local");
    const auto run =
        store.createRun(session, {"resnet20-n1", "resnet20", "fashion-mnist", 1, 0, "mpirun ..."});
    store.startRun(run, "42");
    std::vector<MetricRecord> records{HeaderRecord{1, "resnet20", "fashion-mnist", 1,
                                                   R"({"type":"header","versions":{"libtorch":"2.11.0"}})"}};
    for (int i = 1; i <= 20; ++i)
        records.push_back(StepRecord{i, 1.0, 500, 0.256, 0.01, 0.1, 0.12, 0.0, 0.026, 0.256 * i, 0.0, 0.0, 0.0, std::nullopt});
    store.appendRecords(run, records);
    store.finishRun(run, {"ok", "", 0, ""});

    const ComparedSession loaded = loadComparedSession(store, store.sessions().front());
    CHECK(loaded.name == "nightly");
    REQUIRE(loaded.results.size() == 1);
    CHECK(loaded.results[0].figures.samples_per_s == Approx(500));
    REQUIRE(loaded.run_headers.size() == 1);
    CHECK(flattenJson(loaded.run_headers[0]).at("versions.libtorch") == "2.11.0");
}

TEST_CASE(
    "the terminal comparison names both sessions, every figure with its change, and each differing setting",
    "[core][compare]") {
    FigureComparison faster{"resnet20",     "synthetic", 2,     "samples/s", "samples/s",
                            Better::Higher, 100.0,       125.0, 25.0};
    FigureComparison only_a{"resnet20", "synthetic", 4, "samples/s", "samples/s", Better::Higher, 300.0};
    only_a.note = "only in A";
    const std::string text =
        formatComparison("1 monday", "2 tuesday", {faster, only_a},
                         {{"plan.run[0].backend", "mpi", "gloo"}, {"cluster.host", std::nullopt, "hpc"}});
    CHECK_THAT(text, Catch::Contains("A: 1 monday") && Catch::Contains("B: 2 tuesday"));
    CHECK_THAT(text, Catch::Contains("+25.0% better"));
    CHECK_THAT(text, Catch::Contains("only in A"));
    CHECK_THAT(text, Catch::Contains("settings that differ: 2"));
    CHECK_THAT(text, Catch::Contains("plan.run[0].backend") && Catch::Contains("(not set)"));
}
