// Specification of keeping a plan off the slow nodes a session flagged: which nodes, and the plan that
// excludes them (its groups, its stored text, and its references kept).
#include "plan_writer.h"
#include "slow_node_exclusion.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

RunResult flagging(const std::vector<std::string>& nodes) {
    RunResult result;
    result.slow_ranks.decidable = true;
    result.slow_ranks.slow_nodes = nodes;
    return result;
}

} // namespace

TEST_CASE("the slow nodes of a session are its runs' flagged nodes, each once", "[core][exclude]") {
    CHECK(slowNodesOf({}).empty());
    CHECK(slowNodesOf({flagging({}), RunResult{}}).empty());
    CHECK(slowNodesOf({flagging({"node2"}), flagging({"node3", "node2"}), flagging({""})}) ==
          std::vector<std::string>{"node2", "node3"});
}

TEST_CASE("a plan with the slow nodes excluded keeps every group off them, merged with its own",
          "[core][plan][exclude]") {
    const RunPlan plan = parsePlanText(
        "# nightly\nname = \"nightly\"\nrepeats = 2\nregression_threshold = 0.1\n"
        "[[run]]\nworkload = \"logistic-regression\"\ndataset = \"synthetic-epsilon\"\nranks = [1, 2]\n"
        "steps = 7\nexclude_nodes = [\"node9\", \"node2\"]\nenv = { OMP_PROC_BIND = \"close\" }\n"
        "[[run]]\ncommand = [\"osu_allreduce\", \"-m\", \"8:64\"]\nformat = \"osu\"\nranks = 2\n"
        "[[reference]]\nworkload = \"logistic-regression\"\nfigure = \"samples_per_s\"\nvalue = 1000\nlower "
        "= -0.1\n",
        "nightly.toml");
    const RunPlan excluded = withExcludedNodes(plan, {"node2", "node3", "node3"});

    REQUIRE(excluded.groups.size() == 2);
    CHECK(excluded.groups[0].exclude_nodes == std::vector<std::string>{"node9", "node2", "node3"});
    CHECK(excluded.groups[1].exclude_nodes == std::vector<std::string>{"node2", "node3"});
    // Everything else as it was: the groups' other settings, the repeats, the references and threshold.
    RunGroup first = excluded.groups[0];
    first.exclude_nodes = plan.groups[0].exclude_nodes;
    CHECK(first == plan.groups[0]);
    CHECK(excluded.groups[1].command == plan.groups[1].command);
    CHECK(excluded.name == "nightly");
    CHECK(excluded.repeats == 2);
    CHECK(excluded.regression_threshold == 0.1);
    CHECK(excluded.references.size() == 1);
    // The text a session stores reads back to the same plan: a later resubmission still excludes them.
    CHECK(parsePlanText(excluded.source_text, "again").groups == excluded.groups);
    CHECK_THAT(excluded.source_text, Catch::Contains("node3"));
    // Every run of it carries the exclusion into its job.
    for (const RunSpec& run : expandPlan(excluded))
        CHECK(std::find(run.group.exclude_nodes.begin(), run.group.exclude_nodes.end(), "node3") !=
              run.group.exclude_nodes.end());

    CHECK(withExcludedNodes(plan, {}).source_text == plan.source_text);
    CHECK_THROWS_AS(withExcludedNodes(plan, {"node 2; rm -rf /"}), PlanError);
}

TEST_CASE("a plan without its text (made in the window) is excluded from its own TOML",
          "[core][plan][exclude]") {
    RunPlan plan = parsePlanText(
        "name = \"built\"\n[[run]]\nworkload = \"logistic-regression\"\nranks = [2]\n", "built.toml");
    plan.source_text.clear();
    const RunPlan excluded = withExcludedNodes(plan, {"node2"});
    REQUIRE(excluded.groups.size() == 1);
    CHECK(excluded.groups[0].exclude_nodes == std::vector<std::string>{"node2"});
    CHECK(excluded.groups[0].ranks == std::vector<int>{2});
    CHECK_THAT(excluded.source_text, Catch::Contains("node2"));
}
