// Specification of a session's results as tables, charts and comparisons read them: one scaling series per
// set of plan settings (never pooling runs that measured different things), and time to target with its
// speedup T(N0)/T(N) over repeats beside the throughput-based speedup.
#include "figure_cautions.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

RunResult run(const std::string& workload, int ranks, int repeat, double samples_per_s,
              std::map<std::string, std::string> settings = {}) {
    RunResult r{workload + "-n" + std::to_string(ranks) + "-r" + std::to_string(repeat),
                workload,
                "synthetic",
                ranks,
                repeat,
                RunStatus::Ok,
                "",
                {}};
    r.series = {workload, "synthetic", std::move(settings)};
    r.figures.steady_steps = 20;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown.step_s = 0.1;
    r.figures.breakdown.allreduce_s = 0.02 * ranks;
    return r;
}

RunResult timed(RunResult r, std::optional<double> seconds) {
    r.target = 80;
    r.target_reached = seconds.has_value();
    r.time_to_target_s = seconds;
    return r;
}

const ScalingPoint& pointAt(const std::vector<ScalingPoint>& points, const std::string& label, int ranks) {
    const auto it = std::find_if(points.begin(), points.end(),
                                 [&](const ScalingPoint& p) { return p.label == label && p.ranks == ranks; });
    REQUIRE(it != points.end());
    return *it;
}

} // namespace

// Llama `tiny` at 1 rank against `small` at 2 printed "0.06x 3%"; fp32 and bf16 at 1
// rank were pooled.
TEST_CASE("runs that differ in a setting (preset, precision) form separate scaling series, never pooled",
          "[core][analysis]") {
    const std::vector<RunResult> results = {
        run("llama", 1, 1, 1000, {{"preset", "tiny"}, {"precision", "fp32"}}),
        run("llama", 2, 1, 60, {{"preset", "small"}, {"precision", "fp32"}}),
        run("llama", 1, 1, 50, {{"preset", "small"}, {"precision", "fp32"}}),
        run("llama", 1, 1, 80, {{"preset", "small"}, {"precision", "bf16"}}),
    };
    const auto points = sessionScaling(results);
    REQUIRE(points.size() == 4);
    // Labels name only what differs between the series of one workload and data set.
    const auto& small_2 = pointAt(points, "llama synthetic precision=fp32 preset=small", 2);
    CHECK(small_2.speedup == Approx(60.0 / 50)); // against small at 1 rank, not tiny
    CHECK(small_2.efficiency == Approx(0.6));
    CHECK(pointAt(points, "llama synthetic precision=fp32 preset=tiny", 1).speedup == 1);
    CHECK(pointAt(points, "llama synthetic precision=bf16 preset=small", 1).throughput.count ==
          1); // not pooled

    const auto per_run = runScaling(results);
    CHECK(per_run[1].speedup == Approx(1.2));
    CHECK(per_run[0].speedup == 1);

    const std::string table = formatResultsTable(results);
    CHECK_THAT(table, Catch::Contains("llama synthetic precision=fp32 preset=small"));
    CHECK_THAT(table, !Catch::Contains("0.06x"));
    const std::string csv = resultsCsv(results);
    CHECK_THAT(csv, Catch::Contains(",\"llama synthetic precision=bf16 preset=small\","));
}

// Time to accuracy (MLBench's basic metric) never reached the console's tables.
TEST_CASE(
    "time to target gives speedup T(N0)/T(N) with mean and two sigma over repeats beside the throughput "
    "speedup",
    "[core][analysis]") {
    const std::vector<RunResult> results = {
        timed(run("resnet20", 1, 1, 100), 100), timed(run("resnet20", 1, 2, 100), 120),
        timed(run("resnet20", 1, 3, 100), 110), timed(run("resnet20", 2, 1, 180), 60),
        timed(run("resnet20", 2, 2, 180), 70),  timed(run("resnet20", 2, 3, 180), std::nullopt),
    };
    const auto points = sessionScaling(results);
    REQUIRE(points.size() == 2);
    const ScalingPoint& one = points[0];
    const ScalingPoint& two = points[1];
    CHECK(one.reached == 3);
    CHECK(one.time_to_target.mean == Approx(110));
    CHECK(one.time_to_target.two_sigma() == Approx(20)); // sample stddev of 100, 120, 110 is 10
    CHECK(two.target_repeats == 3);
    CHECK(two.reached == 2); // the third did not reach it: left out of the time, counted as not reached
    REQUIRE(two.time_to_target_speedup);
    // Each repeat at 2 ranks against the mean at 1: 110/60 and 110/70.
    CHECK(two.time_to_target_speedup->mean == Approx((110.0 / 60 + 110.0 / 70) / 2));
    CHECK(two.time_to_target_speedup->count == 2);
    CHECK(two.time_to_target_efficiency == Approx(two.time_to_target_speedup->mean / 2));
    CHECK(two.speedup == Approx(1.8)); // the throughput-based one, beside it
    CHECK(two.communication_share == Approx(0.4));
    CHECK(two.compute_only_speedup == Approx((180 * 0.1 / 0.06) / (100 * 0.1 / 0.08)));

    const auto per_run = runScaling(results);
    REQUIRE(per_run[3].time_to_target_speedup);
    CHECK(*per_run[3].time_to_target_speedup == Approx(110.0 / 60));
    CHECK_FALSE(per_run[5].time_to_target_speedup);

    const std::string table = formatResultsTable(results);
    CHECK_THAT(table, Catch::Contains("time to target (MLBench's time to accuracy"));
    CHECK_THAT(table, Catch::Contains("not reached"));
    CHECK_THAT(table, Catch::Contains("110.0 ±20.0")); // mean ±2 sigma at 1 rank
    CHECK_THAT(table, Catch::Contains("2/3"));
    const std::string csv = resultsCsv(results);
    CHECK_THAT(csv, Catch::Contains("target,target_reached,time_to_target_s,time_to_target_speedup"));
    CHECK_THAT(csv, Catch::Contains(",80.0000,yes,60.000,1.8333,"));
    CHECK_THAT(csv, Catch::Contains(",80.0000,no,,,"));
}

TEST_CASE("a stored session's runs get their series from their records and their time to target from their "
          "summaries",
          "[core][analysis]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.sqlite");
    const std::string plan =
        "name = \"p\"\n"
        "[[run]]\nworkload = \"resnet20\"\nranks = [1]\nprecision = \"fp32\"\ntarget = 50\n"
        "[[run]]\nworkload = \"resnet20\"\nranks = [1]\nprecision = \"bf16\"\ntarget = 50\n";
    const auto session = store.createSession("p", plan, "local");
    const auto specs = expandPlan(parsePlanText(plan, "p.toml"));
    REQUIRE(specs.size() == 2);
    for (const RunSpec& spec : specs) {
        const auto id =
            store.createRun(session, {spec.name, "resnet20", "fashion-mnist", 1, 1, "mpirun ...", spec});
        store.startRun(id, "42");
        std::vector<MetricRecord> records{
            HeaderRecord{1, "resnet20", "fashion-mnist", 1,
                         R"({"type":"header","hyperparameters":{"global_batch":128}})"}};
        for (int i = 1; i <= 20; ++i)
            records.push_back(StepRecord{i, 1.0, 500, 0.256, 0.01, 0.1, 0.12, 0.0, 0.026, 0.256 * i, 0.0, 0.0,
                                         0.0, std::nullopt});
        SummaryRecord summary;
        summary.steps = 20;
        summary.json =
            R"({"type":"summary","steps":20,"wall_s":6,"samples_per_s":500,"final_loss":1,)"
            R"("eval_metric":"accuracy","target":50,"target_reached":true,"time_to_accuracy_s":4.5,)"
            R"("best_value":0.55})";
        records.push_back(summary);
        store.appendRecords(id, records);
        store.finishRun(id, {RunStatus::Ok, "", 0, ""});
    }
    const auto results = loadSessionResults(store, session);
    REQUIRE(results.size() == 2);
    CHECK(results[0].series.settings.at("precision") == "fp32");
    CHECK(results[1].series.settings.at("precision") == "bf16");
    CHECK_FALSE(results[0].series.settings.contains("seed")); // a repeat's seed is not a setting
    CHECK(results[0].target == 50);
    CHECK(results[0].target_reached);
    CHECK(results[0].time_to_target_s == 4.5);
    CHECK(sessionScaling(results).size() == 2); // fp32 and bf16 at 1 rank are not pooled
}

// The results table names the ranks and nodes that the others wait for.
TEST_CASE("the results table names a run's slow rank with its node from the stored rank times and header",
          "[core][analysis]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.sqlite");
    const auto session = store.createSession("p", "", "local");
    const auto id = store.createRun(session, {"resnet20-n4-r1", "resnet20", "synthetic", 4, 1, "mpirun ..."});
    store.startRun(id, "42");
    std::vector<MetricRecord> records{
        HeaderRecord{1, "resnet20", "synthetic", 4,
                     R"({"type":"header","hosts":[{"rank":0,"host":"node1"},{"rank":1,"host":"node1"},)"
                     R"({"rank":2,"host":"node2"},{"rank":3,"host":"node2"}]})"}};
    for (int i = 1; i <= 20; ++i) {
        records.push_back(StepRecord{i, 1.0, 500, 0.05, 0.01, 0.01, 0.02, 0.0, 0.001, 0.05 * i, 0.0, 0.0, 0.0,
                                     std::nullopt});
        const double jitter = 0.0001 * (i % 3);
        records.push_back(RankTimesRecord{
            i, {0.05, 0.05, 0.05, 0.05}, {0.0301 + jitter, 0.0300 - jitter, 0.0302, 0.0412 + jitter}});
    }
    store.appendRecords(id, records);
    store.finishRun(id, {RunStatus::Ok, "", 0, ""});
    const auto results = loadSessionResults(store, session);
    REQUIRE(results.size() == 1);
    REQUIRE(results[0].slow_ranks.slow_ranks.size() == 1);
    CHECK(results[0].slow_ranks.slow_nodes == std::vector<std::string>{"node2"});
    const std::string table = formatResultsTable(results);
    CHECK_THAT(table, Catch::Contains("    slow rank 3 on node2: compute 41.3 ms median vs 30.2 ms for the "
                                      "ranks' median (+37 %)\n    slow node node2 (ranks 3)\n"));
    CHECK_THAT(table, Catch::Contains("by more than 3 x 1.4826 x MAD and by 5 %"));
}

TEST_CASE("a stored plan that no longer reads is named: by the store, beside its runs' speedup, and in the "
          "comparison, never passed over",
          "[core][analysis]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.sqlite");
    const auto good = store.createSession(
        "good", "name = \"good\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\nprecision = \"bf16\"\n",
        "local");
    // A plan an older console stored, naming a workload this one no longer has.
    const auto old = store.createSession(
        "old", "name = \"old\"\n[[run]]\nworkload = \"resnet21\"\nranks = [1]\n", "local");
    const auto imported = store.createSession("import", "", "local"); // imports store no plan
    const auto g = store.session(good);
    REQUIRE(g->stored_plan.plan);
    CHECK(g->stored_plan.problem.empty());
    const auto runs = g->stored_plan.runs();
    CHECK(runs.size() == 2);
    REQUIRE(runs.contains("resnet20-fashion-mnist-n2-r1"));
    CHECK(runs.at("resnet20-fashion-mnist-n2-r1").group.precision == "bf16");
    const auto o = store.session(old);
    CHECK_FALSE(o->stored_plan.plan);
    CHECK(o->stored_plan.runs().empty());
    CHECK_THAT(o->stored_plan.problem, Catch::Contains("the plan stored with session 2 no longer reads") &&
                                           Catch::Contains("unknown workload 'resnet21'"));
    const auto i = store.session(imported);
    CHECK_FALSE(i->stored_plan.plan);
    CHECK(i->stored_plan.problem.empty());

    // Its runs are measured, but their series is their workload and data set alone: said beside the speedup.
    const auto id =
        store.createRun(old, {"resnet21-fashion-mnist-n1-r1", "resnet20", "fashion-mnist", 1, 1, "x"});
    store.startRun(id, "42");
    std::vector<MetricRecord> records;
    for (int step = 1; step <= 20; ++step)
        records.push_back(StepRecord{step, 1.0, 500, 0.256, 0.01, 0.1, 0.12, 0.0, 0.026, 0.256 * step, 0.0,
                                     0.0, 0.0, std::nullopt});
    store.appendRecords(id, records);
    store.finishRun(id, {RunStatus::Ok, "", 0, ""});
    const auto results = loadSessionResults(store, old);
    REQUIRE(results.size() == 1);
    CHECK(results[0].plan_problem == o->stored_plan.problem);
    const auto cautions = figureCautions(results);
    REQUIRE(cautions.size() == 1);
    const auto unread = std::find_if(cautions[0].begin(), cautions[0].end(),
                                     [](const FigureCaution& c) { return c.short_text == "plan unread"; });
    REQUIRE(unread != cautions[0].end());
    CHECK(unread->figure == "speedup");
    CHECK_THAT(unread->reason, Catch::Contains("workload and data set alone") && Catch::Contains("resnet21"));
    CHECK_THAT(formatResultsTable(results), Catch::Contains("workload and data set alone"));
}
