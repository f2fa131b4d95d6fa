// The Runs tab's resubmission offscreen: a session on a Slurm cluster whose results flagged a slow node asks
// to keep the new session off it, and the plan it launches then excludes it (#SBATCH --exclude in the job).
#include "cluster_settings.h"
#include "job_preview.h"
#include "results_table.h"
#include "run_progress_model.h"
#include "runs_tab.h"
#include "session_store.h"
#include "widget_testing.h"

#include <QPushButton>
#include <QTableView>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

const char* const kPlan =
    "name = \"straggler\"\n[[run]]\nworkload = \"logistic-regression\"\ndataset = \"synthetic-epsilon\"\n"
    "ranks = [3]\nsteps = 20\n";

ClusterSettings slurmCluster() {
    ClusterSettings c;
    c.name = "test";
    c.host = "head";
    c.remote_root = "/home/me/sb";
    c.tasks_per_node = 2;
    return c;
}

// What the tab launched, and the questions it asked.
struct Resubmitted {
    std::vector<QString> questions;
    int launches = 0;
    RunPlan plan;
    QString cluster;
    std::vector<RunSpec> runs;
};

// A Runs tab showing session 1 of kPlan on `cluster`, whose one run flagged rank 2 on node2 as slow, its run
// selected; resubmitting answers the question with `answer`.
void resubmit(const std::string& cluster, bool answer, Resubmitted& out) {
    const RunPlan plan = parsePlanText(kPlan, "straggler.toml");
    const std::vector<RunSpec> specs = expandPlan(plan);
    RunProgressModel runs;
    runs.startSession(1, specs);
    RunsTab tab(nullptr, &runs);
    SessionRow session;
    session.id = 1;
    session.cluster = cluster;
    session.plan_text = kPlan;
    if (cluster != kLocalClusterName) session.cluster_json = clusterToJson(slurmCluster());
    tab.setSession(session);
    RunResult result;
    result.name = specs.front().name;
    result.ranks = 3;
    result.status = "ok";
    result.slow_ranks.decidable = true;
    result.slow_ranks.slow_ranks = {SlowRank{2, "node2", 0.05}};
    result.slow_ranks.slow_nodes = {"node2"};
    tab.setResults({result});
    tab.setExcludeQuestion([&](const QString& question) {
        out.questions.push_back(question);
        return answer;
    });
    tab.setLaunch([&](const RunPlan& p, const QString& c, const std::vector<RunSpec>& r) {
        ++out.launches;
        out.plan = p;
        out.cluster = c;
        out.runs = r;
        return true;
    });
    child<QTableView>(tab, "progressTable")->selectRow(0);
    child<QPushButton>(tab, "resubmit")->click();
}

std::string jobScript(const RunSpec& run) {
    return submittedCommand(run, previewSite(slurmCluster(), "unused", "/home/me/sb/sessions", "store"));
}

} // namespace

TEST_CASE("resubmitting a Slurm session's runs offers to exclude its slow node, and the new plan does",
          "[ui][exclude]") {
    Resubmitted accepted;
    resubmit("test", true, accepted);
    REQUIRE(accepted.questions.size() == 1);
    CHECK(accepted.questions.front().toStdString() ==
          "Exclude the slow node(s) node2 flagged in this session (sbatch --exclude)?");
    REQUIRE(accepted.launches == 1);
    CHECK(accepted.cluster == "test");
    REQUIRE(accepted.runs.size() == 1);
    CHECK(accepted.runs.front().group.exclude_nodes == std::vector<std::string>{"node2"});
    CHECK_THAT(jobScript(accepted.runs.front()), Catch::Contains("\n#SBATCH --exclude=node2\n"));
    // The new session stores a plan that says so: resubmitting from it keeps the exclusion.
    CHECK(parsePlanText(accepted.plan.source_text, "stored").groups.front().exclude_nodes ==
          std::vector<std::string>{"node2"});

    Resubmitted declined;
    resubmit("test", false, declined);
    CHECK(declined.questions.size() == 1);
    REQUIRE(declined.runs.size() == 1);
    CHECK(declined.runs.front().group.exclude_nodes.empty());
    CHECK_THAT(jobScript(declined.runs.front()), !Catch::Contains("--exclude"));
    CHECK(declined.plan.source_text == kPlan);
}

TEST_CASE("resubmitting on this machine asks nothing about slow nodes: there is no sbatch --exclude",
          "[ui][exclude]") {
    Resubmitted local;
    resubmit(kLocalClusterName, true, local);
    CHECK(local.questions.empty());
    REQUIRE(local.runs.size() == 1);
    CHECK(local.runs.front().group.exclude_nodes.empty());
}
