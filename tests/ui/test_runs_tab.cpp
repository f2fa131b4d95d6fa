// The Runs tab's resubmission offscreen: a session on a Slurm cluster whose results flagged a slow node asks
// to keep the new session off it, and the plan it launches then excludes it (#SBATCH --exclude in the job).
#include "cluster_settings.h"
#include "job_preview.h"
#include "model_csv.h"
#include "results_table.h"
#include "run_progress_model.h"
#include "run_table_model.h"
#include "runs_tab.h"
#include "session_store.h"
#include "stored_session_loader.h"
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
    session.stored_plan = readStoredPlan(session.id, kPlan);
    if (cluster != kLocalClusterName) session.cluster_json = clusterToJson(slurmCluster());
    tab.setSession(session);
    RunResult result;
    result.name = specs.front().name;
    result.ranks = 3;
    result.status = RunStatus::Ok;
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

TEST_CASE("the Runs tab's two tables show one throughput per run, the steady-state median, and say so",
          "[ui][runs]") {
    // The upper table showed the last step's samples/s, the lower the median over the
    // steady-state steps (848.5 against 844.2 for one run).
    const RunPlan plan = parsePlanText(kPlan, "straggler.toml");
    const std::vector<RunSpec> specs = expandPlan(plan);
    RunProgressModel runs;
    runs.startSession(1, specs);
    runs.runSubmitted(7, specs.front().name, "", "");
    RunsTab tab(nullptr, &runs);
    std::vector<StepRecord> steps;
    for (int i = 1; i <= 20; ++i) { // 2 warm-up steps (a tenth), then 100..117 samples/s, the last 500
        StepRecord s;
        s.step = i;
        s.samples_per_s = i <= 2 ? 10 : i == 20 ? 500 : 100 + (i - 3);
        s.step_s = 1;
        steps.push_back(s);
    }
    // Before the first step there is no figure; after it, that step (as runFigures says of a 1-step run).
    auto* progress = child<QTableView>(tab, "progressTable");
    const QModelIndex upper = progress->model()->index(0, RunProgressModel::SamplesPerS);
    CHECK(upper.data().toString() == "-");
    runs.appendRecords(7, {MetricRecord{steps[0]}});
    CHECK(upper.data().toString() == "10.0");
    std::vector<MetricRecord> rest(steps.begin() + 1, steps.end());
    runs.appendRecords(7, rest);

    RunResult result;
    result.name = specs.front().name;
    result.ranks = 3;
    result.status = RunStatus::Ok;
    result.figures = runFigures(steps, {});
    tab.setResults({result});
    auto* table = child<QTableView>(tab, "runTable");
    const QModelIndex lower = table->model()->index(0, RunTableModel::SamplesPerS);
    CHECK(result.figures.samples_per_s == Approx(108.5)); // median of 100..116 and 500
    CHECK(upper.data().toString() == lower.data().toString());
    CHECK(upper.data().toString() == "108.5");

    // A stored session shows the same figure (the Runs tab's upper table read "-" for stored runs once).
    StoredSession stored;
    stored.session_id = 2;
    RunRow row;
    row.id = 9;
    row.name = specs.front().name;
    row.ranks = 3;
    row.status = RunStatus::Ok;
    stored.runs.push_back(storedRun(row, {steps.begin(), steps.end()}));
    RunProgressModel stored_runs;
    stored_runs.setStoredSession(stored);
    CHECK(stored_runs.index(0, RunProgressModel::SamplesPerS).data().toString() == "108.5");
    for (QAbstractItemModel* model : {progress->model(), table->model()}) {
        const int column =
            model == progress->model() ? int(RunProgressModel::SamplesPerS) : int(RunTableModel::SamplesPerS);
        CHECK(model->headerData(column, Qt::Horizontal).toString() == "samples/s (median)");
        CHECK_THAT(model->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().toStdString(),
                   Catch::Contains("median over steady-state steps") && Catch::Contains("scalebench run"));
    }
}

TEST_CASE("a stored session's traces are shared with the loader's answer, never changed through it",
          "[ui][runs]") {
    // The loader builds each run's trace on its thread and the window shares it (a 1000-run session's traces
    // took ~60 ms of the window's event loop to build there); a row that grows copies its trace first.
    std::vector<MetricRecord> steps;
    for (int i = 1; i <= 30; ++i) {
        StepRecord s;
        s.step = i;
        s.samples_per_s = 100;
        s.step_s = 1;
        steps.emplace_back(s);
    }
    RunRow row;
    row.id = 4;
    row.name = "resnet20-n2-r1";
    row.ranks = 2;
    row.status = RunStatus::Running;
    row.header_json = R"({"type":"header","hyperparameters":{"steps":40}})";
    StoredSession stored;
    stored.session_id = 3;
    stored.runs.push_back(storedRun(row, steps));
    CHECK(stored.runs[0].steps == 40); // from the header, on the loader's thread
    RunProgressModel runs;
    runs.setStoredSession(stored);
    CHECK(&runs.trace(0) == stored.runs[0].trace.get());
    CHECK(runs.index(0, RunProgressModel::Progress).data().toString() == "30 / 40");
    CHECK(runs.recordCount() == 30);

    StepRecord next;
    next.step = 31;
    next.samples_per_s = 200;
    next.step_s = 1;
    runs.appendRecords(4, {next});
    CHECK(runs.trace(0).step.size() == 31);
    CHECK(&runs.trace(0) != stored.runs[0].trace.get());
    CHECK(stored.runs[0].trace->step.size() == 30); // the answer is as the loader read it
    CHECK(runs.index(0, RunProgressModel::Progress).data().toString() == "31 / 40");
}

TEST_CASE("the Runs tab marks a figure not to take at face value, with its reason", "[ui][runs]") {
    // 102 % and 2.4x on a 2-core machine went unquestioned.
    RunProgressModel runs;
    RunsTab tab(nullptr, &runs);
    RunResult crowded;
    crowded.name = "resnet20-fashion-mnist-n2";
    crowded.ranks = 2;
    crowded.status = RunStatus::Ok;
    crowded.figures.steady_steps = 50;
    crowded.figures.samples_per_s = 900;
    crowded.placement = {2, 2, 2}; // 2 ranks x 2 threads on 2 CPUs
    tab.setResults({crowded});
    const QAbstractItemModel* model = child<QTableView>(tab, "runTable")->model();
    CHECK(model->headerData(RunTableModel::Check, Qt::Horizontal).toString() == "Check");
    CHECK(model->index(0, RunTableModel::Check).data().toString() == "ranks share cores");
    const QModelIndex samples = model->index(0, RunTableModel::SamplesPerS);
    CHECK_THAT(samples.data(Qt::ToolTipRole).toString().toStdString(),
               Catch::StartsWith("2 ranks x 2 threads on 2 CPUs of one host: ranks share cores"));
    CHECK(samples.data(Qt::ForegroundRole).isValid());
    CHECK_FALSE(model->index(0, RunTableModel::StepMs).data(Qt::ForegroundRole).isValid());
}

TEST_CASE("the runs table's CSV holds plain numbers under names with units, empty where a run has none",
          "[ui][runs][export]") {
    // CSVs held "152.24 ms" and "+10.0%"; the Runs tab's was written as displayed.
    RunTableModel model;
    RunResult trained;
    trained.name = "resnet20-fashion-mnist-n1-r1";
    trained.ranks = 1;
    trained.status = RunStatus::Ok;
    trained.figures.steady_steps = 50;
    trained.figures.samples_per_s = 942.4;
    trained.figures.breakdown.step_s = 0.0625;
    RunResult sweep;
    sweep.name = "allreduce-sweep-none-n2-r1";
    sweep.ranks = 2;
    sweep.status = RunStatus::Ok;
    model.setResults({trained, sweep});
    const QStringList lines = modelCsv(model).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].startsWith("run,ranks,status,check,samples_per_s,step_ms,speedup,efficiency_percent,"));
    CHECK(lines[1].startsWith("resnet20-fashion-mnist-n1-r1,1,ok,,942.4,62.5,1,100,"));
    CHECK(lines[2].startsWith("allreduce-sweep-none-n2-r1,2,ok,,,,,,"));
}

TEST_CASE("the Runs tab shows a device check's verdict beside the run's status, its checks in the tooltip",
          "[ui][runs]") {
    RunProgressModel runs;
    RunsTab tab(nullptr, &runs);
    RunResult passed;
    passed.name = "llama-small-synthetic-tokens-n1-r1";
    passed.ranks = 1;
    passed.status = RunStatus::Ok;
    passed.device_check = DeviceCheckRecord{"llama", "cpu", 3, "pass", true, {{"rms_norm", true}}};
    RunResult failed = passed;
    failed.name = "llama-small-synthetic-tokens-n1-r2";
    failed.status = RunStatus::Failed;
    failed.error = "job 4242 failed (exit status 1)";
    failed.device_check = DeviceCheckRecord{"llama", "cuda:0", 6, "fail", false, {{"rms_norm", false}}};
    RunResult trained = passed;
    trained.device_check.reset();
    tab.setResults({passed, failed, trained});
    const QAbstractItemModel* model = child<QTableView>(tab, "runTable")->model();
    const auto status = [&](int row) { return model->index(row, RunTableModel::Status); };
    CHECK(status(0).data().toString() == "ok, device check pass");
    CHECK(status(0).data(Qt::ToolTipRole).toString() == "device check on cpu: pass (1 of 1 checks)");
    CHECK(status(1).data().toString() == "failed, device check fail");
    CHECK(status(1).data(Qt::ToolTipRole).toString() ==
          "device check on cuda:0: FAIL: rms_norm\njob 4242 failed (exit status 1)");
    CHECK(status(1).data(Qt::UserRole).toString() == "failed"); // the CSV keeps the plain status
    CHECK(status(2).data().toString() == "ok");
}
