// Tests of the ui models, the scaling chart PNG and the main window over a real session store.
#include "main_window.h"
#include "run_table_model.h"
#include "scaling_chart_png.h"
#include "scaling_model.h"
#include "session_list_model.h"
#include "session_store.h"
#include "stored_session_loader.h"

#include <QAbstractItemModelTester>
#include <QImage>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>

using namespace scalebench;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

ScalingPoint point(const std::string& workload, int ranks, double mean, double stddev, double speedup,
                   double efficiency) {
    ScalingPoint p;
    p.workload = workload;
    p.dataset = "synthetic";
    p.series = {workload, "synthetic", {}};
    p.label = workload + " synthetic";
    p.ranks = ranks;
    p.repeats = 3;
    p.throughput = Statistics{3, mean, stddev};
    p.speedup = speedup;
    p.efficiency = efficiency;
    return p;
}

std::vector<ScalingPoint> samplePoints() {
    return {point("resnet18", 1, 1000, 10, 1.0, 1.0), point("resnet18", 2, 1900, 20, 1.9, 0.95),
            point("resnet18", 4, 3600, 40, 3.6, 0.90), point("resnet18", 8, 6400, 80, 6.4, 0.80)};
}

RunResult runResult(const std::string& name, int ranks, RunStatus status, double samples_per_s) {
    RunResult r{name, "resnet18", "synthetic", ranks, 0, status, status == RunStatus::Ok ? "" : "rank 1 died",
                {}};
    if (status == RunStatus::Ok) {
        r.figures.steady_steps = 40;
        r.figures.samples_per_s = samples_per_s;
        r.figures.breakdown.step_s = 256 / samples_per_s;
        r.figures.final_loss = 0.25;
        r.figures.final_eval = 0.9;
    }
    return r;
}

// A run of `steps` steps at a steady throughput, with one evaluation at the end.
void storeRun(SessionStore& store, std::int64_t session, int ranks, double samples_per_s, int steps = 30) {
    const auto run = store.createRun(
        session, {"resnet18-n" + std::to_string(ranks), "resnet18", "synthetic", ranks, 0, "torchrun ..."});
    store.startRun(run, "1");
    std::vector<MetricRecord> records;
    for (int i = 1; i <= steps; ++i) {
        const double step_s = 256 / samples_per_s;
        records.push_back(StepRecord{i, 2.0 / i, samples_per_s, step_s, 0.1 * step_s, 0.3 * step_s,
                                     0.4 * step_s, 0.15 * step_s, 0.05 * step_s, i * step_s, 0.0, 0.0, 0.0,
                                     std::nullopt});
    }
    records.push_back(EvalRecord{steps, "accuracy", 0.85, 0.4, steps * 256 / samples_per_s});
    store.appendRecords(run, records);
    store.finishRun(run, {RunStatus::Ok, "", 0, ""});
}

} // namespace

TEST_CASE("SessionListModel passes the model tester with data and after a reset", "[ui]") {
    SessionListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSessions(
        {{1, "first", "2024-05-01T09:30:00Z", "2024-05-01T10:00:00Z", SessionStatus::Ok, "local", 4},
         {7, "second", "2024-05-02T09:30:00Z", "", SessionStatus::Running, "jean-zay", 2}});
    REQUIRE(model.rowCount() == 2);
    REQUIRE(model.columnCount() == SessionListModel::ColumnCount);
    CHECK(model.sessionId(1) == 7);
    CHECK(model.sessionId(2) == 0);
    CHECK(model.data(model.index(0, SessionListModel::Started)).toString() == "2024-05-01 09:30:00");
    CHECK(model.data(model.index(1, SessionListModel::Runs)).toInt() == 2);
    CHECK(model.headerData(SessionListModel::Started, Qt::Horizontal).toString() == "Started (UTC)");

    // A running session of 2 runs said 1 (its runs are stored as they are submitted).
    SessionRow running{9, "quickstart", "2024-05-03T09:30:00Z", "", SessionStatus::Running, "local", 1};
    running.plan_text = "name = \"quickstart\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\n";
    running.stored_plan = readStoredPlan(running.id, running.plan_text); // as the store reads it
    model.setSessions({running});
    CHECK(model.data(model.index(0, SessionListModel::Runs)).toString() == "1 of 2");
    running.status = SessionStatus::Ok;
    running.run_count = 2;
    model.setSessions({running});
    CHECK(model.data(model.index(0, SessionListModel::Runs)).toString() == "2");
    model.setSessions({});
    CHECK(model.rowCount() == 0);
}

TEST_CASE("ScalingModel keeps one series and computes ideal scaling", "[ui]") {
    ScalingModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    auto points = samplePoints();
    points.insert(points.begin() + 1, point("gpt2", 2, 50, 1, 1, 1)); // another workload: dropped
    std::swap(points[2], points[3]);                                  // out of rank order: sorted
    model.setPoints(points);
    REQUIRE(model.rowCount() == 4);
    CHECK(model.workload() == "resnet18");
    auto value = [&](int row, int column) { return model.data(model.index(row, column)).toDouble(); };
    const double x0 = 1000, n0 = 1;
    for (int row = 0; row < model.rowCount(); ++row) {
        const double n = value(row, ScalingModel::Ranks);
        CHECK(value(row, ScalingModel::IdealSamplesPerS) == Approx(x0 * n / n0));
    }
    CHECK(value(3, ScalingModel::Ranks) == 8);
    CHECK(value(3, ScalingModel::SamplesPerS) == 6400);
    CHECK(value(3, ScalingModel::TwoSigma) == 160);
    CHECK(value(3, ScalingModel::Speedup) == Approx(6.4));
    CHECK(value(3, ScalingModel::Efficiency) == Approx(80));
    CHECK(model.data(model.index(0, ScalingModel::Ranks)).typeId() == QMetaType::Double);

    // Ideal is X(N0) * N / N0 with N0 the smallest rank count, here 2.
    model.setPoints({point("bert", 2, 500, 0, 1, 1), point("bert", 6, 1200, 0, 2.4, 0.8)});
    CHECK(value(1, ScalingModel::IdealSamplesPerS) == Approx(500.0 * 6 / 2));
    model.setPoints({});
    CHECK(model.rowCount() == 0);
}

TEST_CASE("RunTableModel shows figures, speedup and efficiency of each run", "[ui]") {
    RunTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setResults({runResult("n1", 1, RunStatus::Ok, 1000), runResult("n4", 4, RunStatus::Ok, 3600),
                      runResult("n8", 8, RunStatus::Failed, 0)});
    REQUIRE(model.rowCount() == 3);
    REQUIRE(model.columnCount() == RunTableModel::ColumnCount);
    CHECK(model.data(model.index(1, RunTableModel::Speedup), Qt::UserRole).toDouble() == Approx(3.6));
    CHECK(model.data(model.index(1, RunTableModel::Efficiency), Qt::UserRole).toDouble() == Approx(90));
    CHECK(model.data(model.index(1, RunTableModel::Speedup)).toString() == "3.60x");
    CHECK(model.data(model.index(1, RunTableModel::Eval)).toString() == "acc 90.0%");
    CHECK(model.data(model.index(2, RunTableModel::SamplesPerS)).toString() == "-");
    CHECK(model.data(model.index(2, RunTableModel::Run), Qt::ToolTipRole).toString() == "rank 1 died");
    model.setResults({runResult("n2", 2, RunStatus::Ok, 1800)});
    CHECK(model.rowCount() == 1);
}

TEST_CASE("renderScalingChartPng writes a PNG of the requested size with the chart drawn in it", "[ui]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("scaling.png");
    REQUIRE(renderScalingChartPng(samplePoints(), {}, path, {640, 400}));
    QImage image(path);
    REQUIRE(!image.isNull());
    CHECK(image.size() == QSize(640, 400));
    // Drawn, not only an image of that size: the measured speedup's line and markers (the view's blue,
    // 31, 119, 180) run across the plot, and the ideal's grey dashes are there beside them.
    const auto near = [](QColor c, int r, int g, int b) {
        return std::abs(c.red() - r) <= 12 && std::abs(c.green() - g) <= 12 && std::abs(c.blue() - b) <= 12;
    };
    int blue = 0, grey = 0, left = image.width(), right = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (near(c, 31, 119, 180)) {
                ++blue;
                left = std::min(left, x);
                right = std::max(right, x);
            } else if (near(c, 120, 120, 120)) {
                ++grey;
            }
        }
    INFO("blue pixels " << blue << " from x " << left << " to " << right << "; grey " << grey);
    CHECK(blue > 300);
    CHECK(right - left > image.width() / 2);
    CHECK(grey > 50);
    CHECK_FALSE(renderScalingChartPng(samplePoints(), {}, dir.filePath("missing/dir/x.png")));
}

TEST_CASE("MainWindow lists stored sessions and shows the selected session's runs", "[ui]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    const auto first = store.createSession("first", "[plan]", "local");
    storeRun(store, first, 1, 1000);
    storeRun(store, first, 2, 1900);
    store.finishSession(first, SessionStatus::Ok);
    const auto second = store.createSession("second", "[plan]", "local");
    storeRun(store, second, 1, 1100);
    storeRun(store, second, 2, 2000);
    storeRun(store, second, 4, 3800);

    MainWindow window(store);
    // The sessions and the newest one's figures are read on the loader's thread and arrive as whole values.
    QSignalSpy loaded(&window, &MainWindow::sessionShown);
    REQUIRE(loaded.wait(10'000));
    auto* sessions = window.findChild<QTableView*>("sessionTable");
    auto* runs = window.findChild<QTableView*>("runTable");
    REQUIRE(sessions);
    REQUIRE(runs);
    REQUIRE(sessions->model()->rowCount() == 2);
    CHECK(window.windowTitle() == "scalebench");
    // The newest session is selected on load.
    CHECK(sessions->selectionModel()->currentIndex().row() == 1);
    CHECK(runs->model()->rowCount() == 3);

    sessions->selectRow(0);
    REQUIRE(loaded.wait(10'000));
    REQUIRE(runs->model()->rowCount() == 2);
    CHECK(runs->model()->index(1, RunTableModel::Speedup).data(Qt::UserRole).toDouble() == Approx(1.9));

    store.createSession("third", "[plan]", "local");
    window.reload();
    REQUIRE(loaded.wait(10'000));
    CHECK(sessions->model()->rowCount() == 3);
    CHECK(runs->model()->rowCount() == 0);

    const QString shot = dir.filePath("window.png");
    REQUIRE(window.saveScreenshot(shot));
    CHECK(!QImage(shot).isNull());
}
