// Verdicts on a session: a plan's references pass or fail each run's figure, a baseline session's figures
// change only beyond the noise of the repeats, and CI reads it all as JUnit XML.
#include "run_plan.h"
#include "verdicts.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
RunResult trained(const std::string& name, int ranks, double samples_per_s) {
    RunResult r;
    r.name = name;
    r.workload = "logistic-regression";
    r.dataset = "synthetic-epsilon";
    r.ranks = ranks;
    r.status = RunStatus::Ok;
    r.figures.steady_steps = 10;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown.step_s = 64 / samples_per_s;
    return r;
}

std::vector<Reference> referencesOf(const std::string& tables) {
    return parsePlanText("name = \"p\"\n[[run]]\nworkload = \"logistic-regression\"\nranks = 1\n" + tables,
                         "p.toml")
        .references;
}

std::string refusalOf(const std::string& tables) {
    try {
        referencesOf(tables);
    } catch (const PlanError& e) {
        return e.what();
    }
    return "accepted";
}

std::vector<RunResult> session(const std::vector<double>& throughputs) {
    std::vector<RunResult> out;
    for (double x : throughputs)
        out.push_back(trained("lr-n1-r" + std::to_string(out.size() + 1), 1, x));
    return out;
}
} // namespace

TEST_CASE(
    "a reference passes a run inside its bounds and fails one outside, naming the figure and the bounds",
    "[core][verdicts]") {
    const auto refs =
        referencesOf("[[reference]]\nworkload = \"logistic-regression\"\nfigure = \"samples_per_s\"\n"
                     "value = 1000\nlower = -0.1\nupper = 0.2\nunit = \"samples/s\"\n");
    REQUIRE(refs.size() == 1);
    const auto verdicts = referenceVerdicts(
        {trained("fast", 1, 950), trained("slow", 1, 850), trained("wild", 1, 1300)}, refs, "local");
    REQUIRE(verdicts.size() == 3);
    CHECK(verdicts[0].outcome == Outcome::Pass);
    CHECK(verdicts[0].text ==
          "samples_per_s 950 samples/s: pass (reference 1000 samples/s, from 900 to 1200)");
    CHECK(verdicts[1].outcome == Outcome::Fail);
    CHECK_THAT(verdicts[1].text, Catch::EndsWith("below its lower bound)"));
    CHECK(verdicts[2].outcome == Outcome::Fail);
    CHECK_THAT(verdicts[2].text, Catch::EndsWith("above its upper bound)"));
    CHECK(verdictsFail(verdicts, {}));
    CHECK_FALSE(verdictsFail({verdicts[0]}, {}));
}

TEST_CASE(
    "a reference applies to its workload, rank count and cluster only, and a run it does not bound says so",
    "[core][verdicts]") {
    const auto refs =
        referencesOf("[[reference]]\nworkload = \"logistic-regression\"\nranks = 2\ncluster = \"prod\"\n"
                     "figure = \"step_time_ms\"\nvalue = 50\nupper = 0.1\n");
    RunResult other = trained("other", 2, 1000);
    other.workload = "resnet20";
    const auto verdicts =
        referenceVerdicts({trained("one", 1, 1000), trained("two", 2, 1000), other}, refs, "prod");
    REQUIRE(verdicts.size() == 3);
    CHECK(verdicts[0].outcome == Outcome::NoReference);
    CHECK(verdicts[1].outcome == Outcome::Fail); // 64 ms a step, above 55
    CHECK(verdicts[2].outcome == Outcome::NoReference);
    CHECK(referenceVerdicts({trained("two", 2, 1000)}, refs, "local")[0].outcome == Outcome::NoReference);
}

TEST_CASE("a run that failed, or has no value for the figure, fails its reference", "[core][verdicts]") {
    const auto refs = referencesOf("[[reference]]\nworkload = \"logistic-regression\"\nfigure = "
                                   "\"time_to_target_s\"\nvalue = 30\nupper = 0.5\n");
    RunResult failed = trained("failed", 1, 1000);
    failed.status = RunStatus::Failed;
    const auto verdicts = referenceVerdicts({trained("short", 1, 1000), failed}, refs, "local");
    CHECK(verdicts[0].outcome == Outcome::Fail);
    CHECK_THAT(verdicts[0].text, Catch::Contains("the run has no such figure"));
    CHECK_THAT(verdicts[1].text, Catch::Contains("fail: the run failed"));
}

TEST_CASE("a plan's references are checked as it is read: figure, value, bounds, unit and size",
          "[core][verdicts]") {
    const std::string head = "[[reference]]\nworkload = \"logistic-regression\"\n";
    CHECK_THAT(refusalOf(head + "figure = \"speed\"\nvalue = 1\nlower = -0.1\n"),
               Catch::Contains("no figure 'speed' (figures: samples_per_s"));
    CHECK_THAT(refusalOf(head + "figure = \"samples_per_s\"\nlower = -0.1\n"),
               Catch::Contains("needs the figure's 'value'"));
    CHECK_THAT(refusalOf(head + "figure = \"samples_per_s\"\nvalue = 1\n"),
               Catch::Contains("give 'lower', 'upper' or both"));
    CHECK_THAT(refusalOf(head + "figure = \"samples_per_s\"\nvalue = 1\nlower = 0.1\n"),
               Catch::Contains("'lower' is a fraction of value in [-1, 0]"));
    CHECK_THAT(refusalOf(head + "figure = \"step_time_ms\"\nvalue = 1\nupper = 0.1\nunit = \"s\"\n"),
               Catch::Contains("'step_time_ms' is in ms, not 's'"));
    CHECK_THAT(refusalOf(head + "figure = \"busbw_gbps\"\nvalue = 1\nlower = -0.1\n"),
               Catch::Contains("names its message size in 'bytes'"));
    CHECK_THAT(refusalOf(head + "figure = \"samples_per_s\"\nvalue = 1\nlower = -0.1\nbytes = 8\n"),
               Catch::Contains("'bytes' applies to busbw_gbps only"));
    CHECK(refusalOf(head + "figure = \"busbw_gbps\"\nbytes = 1048576\nvalue = 20\nlower = -0.2\n") ==
          "accepted");
}

TEST_CASE("a throughput 10 % lower than the baseline over 5 repeats a side is a regression, at 2 repeats it "
          "cannot tell",
          "[core][verdicts]") {
    const auto baseline = session({1002, 987, 1011, 995, 1006});
    const auto slower = session({902, 897, 911, 890, 905});
    const auto verdicts = regressionVerdicts(baseline, slower, 0.05);
    const auto throughput = std::find_if(verdicts.begin(), verdicts.end(),
                                         [](const RegressionVerdict& v) { return v.figure == "samples/s"; });
    REQUIRE(throughput != verdicts.end());
    CHECK(throughput->regression);
    CHECK(throughput->ranks == 1);
    const auto step = std::find_if(verdicts.begin(), verdicts.end(),
                                   [](const RegressionVerdict& v) { return v.figure == "step time (ms)"; });
    CHECK(step->regression); // longer steps: worse too
    CHECK(verdictsFail({}, verdicts));
    const std::string text = formatVerdicts({}, verdicts, "session 1");
    CHECK_THAT(text, Catch::Contains("against baseline session 1") && Catch::Contains("REGRESSION"));

    const auto two = regressionVerdicts(session({1002, 987}), session({902, 897}), 0.05);
    REQUIRE_FALSE(two.empty());
    CHECK(two.front().change.kind == ChangeKind::CannotTell);
    CHECK_FALSE(verdictsFail({}, two));
    CHECK_FALSE(verdictsFail({}, regressionVerdicts(baseline, session({1005, 990, 1000, 1010, 998}), 0.05)));
}

TEST_CASE(
    "JUnit XML holds a test case per run and per judged figure, failures and errors counted and escaped",
    "[core][verdicts]") {
    const auto refs =
        referencesOf("[[reference]]\nworkload = \"logistic-regression\"\nfigure = \"samples_per_s\"\n"
                     "value = 1000\nlower = -0.1\n");
    RunResult broken = trained("a<b>&\"c\"", 1, 1000);
    broken.status = RunStatus::Failed;
    broken.error = "rank 1: <boom>";
    const std::vector<RunResult> results = {trained("slow", 1, 800), broken};
    const std::string xml =
        junitXml("nightly \"lr\"", results, referenceVerdicts(results, refs, "local"), {});
    CHECK_THAT(xml, Catch::StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"nightly "
                                      "&quot;lr&quot;\" tests=\"4\" failures=\"2\" errors=\"1\">"));
    CHECK_THAT(xml, Catch::Contains("<testcase classname=\"slow\" name=\"samples_per_s\">\n    <failure "
                                    "message=\"samples_per_s 800 samples/s: FAIL"));
    CHECK_THAT(xml, Catch::Contains("classname=\"a&lt;b&gt;&amp;&quot;c&quot;\" name=\"run\">\n    <error "
                                    "message=\"the run failed: rank 1: &lt;boom&gt;\"/>"));
}
