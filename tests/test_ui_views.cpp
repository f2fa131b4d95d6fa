// Tests of the analysis views offscreen: breakdown, speedup, collectives, stragglers, comparison, session
// search (the filter, and typing in the main window's box), and export to PNG, SVG and CSV. Each model runs
// under QAbstractItemModelTester; each view is checked for what it shows (series, points, axes, legend).
#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "breakdown_tab.h"
#include "chart_export.h"
#include "collectives_chart_view.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "import_dialog.h"
#include "live_view.h"
#include "main_window.h"
#include "model_csv.h"
#include "rank_heat_map_model.h"
#include "rank_heat_map_view.h"
#include "rank_times_chart_view.h"
#include "rank_times_model.h"
#include "run_table_model.h"
#include "scaling_model.h"
#include "scaling_tab.h"
#include "session_filter_model.h"
#include "session_list_model.h"
#include "session_store.h"
#include "settings_diff_model.h"
#include "speedup_chart_view.h"
#include "stored_session_loader.h"
#include "widget_testing.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDomDocument>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>

using namespace scalebench;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// Shows a widget off screen at the size screenshots use and lets it lay out: a chart's layout request may
// post further ones (legend, view update), so the event loop runs three passes, not one (the Collectives
// chart test failed once on a loaded machine, not reproduced since; one pass was the suspect).
void showOffscreen(QWidget& widget, QSize size = {1000, 600}) {
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
}

int visibleLegendEntries(QChart* chart) {
    int count = 0;
    for (QLegendMarker* marker : chart->legend()->markers())
        count += marker->isVisible();
    return count;
}

bool legendClearOfPlot(QChart* chart) {
    return !chart->legend()->geometry().intersects(chart->plotArea());
}

RunResult trainingRun(const std::string& workload, int ranks, int repeat, double samples_per_s,
                      double step_ms, double hidden_fraction, double comm_fraction) {
    RunResult r{workload + "-n" + std::to_string(ranks) + "-r" + std::to_string(repeat),
                workload,
                "synthetic",
                ranks,
                repeat,
                RunStatus::Ok,
                "",
                {}};
    const double s = step_ms / 1e3;
    const double comm = comm_fraction * s;
    r.figures.steady_steps = 40;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown = {s, 0.05 * s, 0.3 * s, 0.55 * s - comm, comm, 0.1 * s, hidden_fraction * s};
    r.figures.final_loss = 0.4;
    r.figures.final_eval = 0.88;
    return r;
}

// ResNet-20 at 1, 2, 4 and 8 ranks, two repeats each: communication grows with the rank count.
std::vector<RunResult> sampleTrainingSession(double speed = 1.0) {
    std::vector<RunResult> runs;
    const std::vector<std::tuple<int, double, double, double>> shape = {
        {1, 1000, 0.0, 0.0}, {2, 1900, 0.08, 0.04}, {4, 3600, 0.12, 0.08}, {8, 6400, 0.15, 0.14}};
    for (const auto& [ranks, throughput, hidden, comm] : shape)
        for (int repeat = 0; repeat < 2; ++repeat) {
            const double x = throughput * speed * (repeat ? 1.02 : 0.98);
            runs.push_back(trainingRun("resnet20", ranks, repeat, x, 256.0 * ranks / x * 1e3, hidden, comm));
        }
    return runs;
}

std::vector<CollectiveRecord> sampleSweeps() {
    std::vector<CollectiveRecord> records;
    for (const std::string backend : {"mpi", "nccl"})
        for (int ranks : {2, 4})
            for (std::int64_t bytes = 1024; bytes <= (std::int64_t{64} << 20); bytes *= 4) {
                CollectiveRecord c;
                c.backend = backend;
                c.collective = "allreduce";
                c.dtype = "float32";
                c.ranks = ranks;
                c.bytes = bytes;
                c.elements = bytes / 4;
                c.repetitions = 20;
                // A latency of 20 us (mpi) or 8 us (nccl) and a link of 10 or 40 GB/s.
                const double latency = backend == "mpi" ? 20e-6 : 8e-6, link = backend == "mpi" ? 10e9 : 40e9;
                c.time_s = latency + bytes / link;
                c.algbw_gbps = bytes / c.time_s / 1e9;
                c.busbw_gbps = c.algbw_gbps * 2.0 * (ranks - 1) / ranks;
                c.correct = true;
                records.push_back(c);
            }
    return records;
}

// Four ranks, rank 2 computes 20% longer; everyone's step waits for it.
std::vector<RankTimesRecord> sampleRankTimes(int ranks = 4) {
    std::vector<RankTimesRecord> records;
    for (int step = 1; step <= 30; ++step) {
        RankTimesRecord r{step, {}, {}};
        for (int rank = 0; rank < ranks; ++rank) {
            const double compute = rank == 2 ? 0.120 : 0.100 + 0.001 * (rank % 5);
            r.compute_s.push_back(compute);
            r.step_s.push_back(0.130);
        }
        records.push_back(r);
    }
    return records;
}

ComparedSession sampleComparedSession(const std::string& name, double speed, const std::string& libtorch,
                                      int steps) {
    ComparedSession s{name, sampleTrainingSession(speed)};
    s.plan_text = "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4, 8]\nsteps = " +
                  std::to_string(steps) + "\n";
    s.stored_plan = readStoredPlan(1, s.plan_text);
    s.cluster_json = R"({"name":"prod","host":"login1","partition":"gpu"})";
    s.run_headers = {R"({"type":"header","versions":{"libtorch":")" + libtorch +
                     R"("},"threads_per_rank":4,"unix_time":1})"};
    SessionRow session;
    session.name = name;
    session.plan_text = s.plan_text;
    RunRow run;
    run.name = "resnet20-fashion-mnist-n1-r1";
    run.header_json = s.run_headers[0];
    run.command =
        "#!/bin/bash\n#SBATCH --nodes=1\nsrun scalebench-engine --steps " + std::to_string(steps) + "\n";
    s.capsules = {runCapsule(session, run)};
    return s;
}

// Minimal RFC 4180 reader for the round-trip test.
std::vector<std::vector<QString>> parseCsv(const QString& text) {
    std::vector<std::vector<QString>> rows(1);
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            rows.back().push_back(field);
            field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
            ++i;
        } else {
            field += c;
        }
    }
    if (rows.back().empty() && field.isEmpty()) rows.pop_back();
    return rows;
}

} // namespace

TEST_CASE("BreakdownModel gives each part in ms per rank count, means over repeats", "[ui][views]") {
    BreakdownModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    auto runs = sampleTrainingSession();
    runs.push_back(trainingRun("bert", 2, 0, 100, 500, 0.1, 0.1)); // another workload: left out
    model.setResults(runs, "resnet20");
    REQUIRE(model.rowCount() == 4);
    REQUIRE(model.columnCount() == BreakdownModel::ColumnCount);
    CHECK(model.workload() == "resnet20");
    auto value = [&](int row, int column) { return model.data(model.index(row, column)).toDouble(); };
    CHECK(value(3, BreakdownModel::Ranks) == 8);
    CHECK(value(3, BreakdownModel::Repeats) == 2);
    const double step_ms = (runs[6].figures.breakdown.step_s + runs[7].figures.breakdown.step_s) / 2 * 1e3;
    CHECK(value(3, BreakdownModel::StepMs) == Approx(step_ms));
    CHECK(value(3, BreakdownModel::HiddenCommMs) == Approx(0.15 * step_ms));
    CHECK(value(3, BreakdownModel::ExposedCommMs) == Approx(0.14 * step_ms));
    for (int row = 0; row < model.rowCount(); ++row)
        CHECK(value(row, BreakdownModel::DataMs) + value(row, BreakdownModel::ForwardMs) +
                  value(row, BreakdownModel::BackwardMs) + value(row, BreakdownModel::OptimizerMs) +
                  value(row, BreakdownModel::ExposedCommMs) ==
              Approx(value(row, BreakdownModel::StepMs)));
    CHECK(model.headerData(BreakdownModel::HiddenCommMs, Qt::Horizontal).toString() ==
          "Hidden communication (ms)");

    model.setResults(runs); // the first workload in name order
    REQUIRE(model.rowCount() == 1);
    CHECK(model.workload() == "bert");
    model.setResults(runs, "nothing-like-it");
    CHECK(model.rowCount() == 0);
}

TEST_CASE("BreakdownChartView stacks the parts to the step time and puts hidden communication beside them",
          "[ui][views]") {
    BreakdownModel model;
    model.setResults(sampleTrainingSession());
    BreakdownChartView view(&model);
    showOffscreen(view);

    const QList<QBarSet*> sets = view.stackSeries()->barSets();
    REQUIRE(sets.size() == 5);
    CHECK(sets[0]->label() == "data");
    CHECK(sets[4]->label() == "exposed comm.");
    for (int row = 0; row < model.rowCount(); ++row) {
        double stacked = 0;
        for (QBarSet* set : sets)
            stacked += set->at(row);
        CHECK(stacked == Approx(model.data(model.index(row, BreakdownModel::StepMs)).toDouble()));
    }
    REQUIRE(view.hiddenBars().size() == 4);
    const QList<QPointF> top = view.hiddenBars()[3]->upperSeries()->points();
    REQUIRE(top.size() == 2);
    CHECK(top[0].y() == Approx(model.data(model.index(3, BreakdownModel::HiddenCommMs)).toDouble()));
    CHECK(top[0].x() > 3.25); // right of the stack, which spans 3 +- 0.25
    const QStringList categories = view.rankAxis()->categories();
    REQUIRE(categories.size() == 4);
    CHECK(categories[0].startsWith("1<br>comm "));
    CHECK(categories[0].endsWith("compute-only 1.00x")); // N0 against itself
    CHECK(categories[3].startsWith("8<br>comm "));
    CHECK(categories[3].contains(
        QString::number(model.data(model.index(3, BreakdownModel::CommunicationShare)).toDouble(), 'f', 0) +
        "%"));
    CHECK(view.rankAxis()->titleText().contains("ranks"));
    CHECK(view.timeAxis()->titleText().contains("(ms)"));
    CHECK(view.timeAxis()->max() >= model.data(model.index(3, BreakdownModel::StepMs)).toDouble());
    CHECK(visibleLegendEntries(view.chart()) == 6); // five parts, one hidden-communication entry
    CHECK(legendClearOfPlot(view.chart()));
    CHECK(view.chart()->title().contains("resnet20"));

    model.setResults({}); // an empty session
    CHECK(view.hiddenBars().empty());
    CHECK(sets[0]->count() == 0);
    CHECK(view.chart()->title() == "No steady-state steps to break down");
}

TEST_CASE("ScalingModel gives the speedup's two sigma against X(N0) and the ideal speedup", "[ui][views]") {
    ScalingModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setPoints(sessionScaling(sampleTrainingSession()));
    REQUIRE(model.rowCount() == 4);
    auto value = [&](int row, int column) { return model.data(model.index(row, column)).toDouble(); };
    const double x0 = value(0, ScalingModel::SamplesPerS);
    CHECK(x0 == Approx(1000));
    CHECK(value(2, ScalingModel::IdealSpeedup) == Approx(4));
    CHECK(value(2, ScalingModel::SpeedupTwoSigma) == Approx(value(2, ScalingModel::TwoSigma) / x0));
    CHECK(value(2, ScalingModel::SpeedupTwoSigma) > 0);
    CHECK(value(3, ScalingModel::EfficiencyTwoSigma) ==
          Approx(value(3, ScalingModel::SpeedupTwoSigma) / 8 * 100));
}

TEST_CASE("SpeedupChartView draws speedup with two-sigma error bars, the ideal line and efficiency on a "
          "second axis",
          "[ui][views]") {
    ScalingModel model;
    auto runs = sampleTrainingSession();
    // Runs finish one rank count at a time: the chart fills in as the model is reset with more points.
    model.setPoints(sessionScaling({runs.begin(), runs.begin() + 4}));
    SpeedupChartView view(&model);
    showOffscreen(view);
    CHECK(view.speedupSeries()->count() == 2);
    CHECK(view.errorBars().size() == 2);

    model.setPoints(sessionScaling(runs));
    QCoreApplication::processEvents(); // the legend lays out the new error bars' entries
    const QList<QPointF> speedup = view.speedupSeries()->points();
    REQUIRE(speedup.size() == 4);
    CHECK(speedup[3] == QPointF(8, model.data(model.index(3, ScalingModel::Speedup)).toDouble()));
    CHECK(view.idealSeries()->points()[3] == QPointF(8, 8));
    CHECK(view.efficiencySeries()->points()[3].y() ==
          Approx(model.data(model.index(3, ScalingModel::Efficiency)).toDouble()));
    REQUIRE(view.errorBars().size() == 4);
    const QList<QPointF> bar = view.errorBars()[3]->points();
    REQUIRE(bar.size() == 6);
    const double s = speedup[3].y(),
                 sigma = model.data(model.index(3, ScalingModel::SpeedupTwoSigma)).toDouble();
    CHECK(bar[2] == QPointF(8, s - sigma)); // the vertical segment
    CHECK(bar[3] == QPointF(8, s + sigma));
    CHECK(sigma > 0.05);

    CHECK(view.ranksAxis()->min() == 0);
    CHECK(view.ranksAxis()->max() >= 8);
    CHECK(view.speedupAxis()->max() >= s + sigma);
    CHECK(view.speedupAxis()->max() >= 8);
    CHECK(view.efficiencyAxis()->max() >= 100);
    CHECK(view.efficiencyAxis()->max() == 120);
    CHECK(view.efficiencyAxis()->titleText().endsWith("(%)"));
    CHECK(view.efficiencySeries()->attachedAxes().contains(view.efficiencyAxis()));
    // The speedup with free communication, from the breakdown (seed 004's compute speedup).
    REQUIRE(view.computeOnlySeries()->count() == 4);
    CHECK(view.computeOnlySeries()->points()[3].y() ==
          Approx(model.data(model.index(3, ScalingModel::ComputeOnlySpeedup)).toDouble()));
    CHECK(view.computeOnlySeries()->points()[0].y() == Approx(1));
    // No run had a target: no time-to-target line, and no legend entry for one.
    CHECK(view.timeToTargetSeries()->count() == 0);
    CHECK_FALSE(view.timeToTargetSeries()->isVisible());
    // speedup ±2σ (its error bars without an entry of their own), ideal, compute only, efficiency
    CHECK(visibleLegendEntries(view.chart()) == 4);
    CHECK(legendClearOfPlot(view.chart()));

    // Runs that reached a target: T(N0) / T(N) beside the throughput speedup.
    for (RunResult& r : runs) {
        r.target = 80;
        r.target_reached = true;
        r.time_to_target_s = 100.0 / r.ranks * (1 + 0.1 * r.repeat);
    }
    model.setPoints(sessionScaling(runs));
    QCoreApplication::processEvents();
    REQUIRE(view.timeToTargetSeries()->count() == 4);
    CHECK(view.timeToTargetSeries()->isVisible());
    CHECK(view.timeToTargetSeries()->points()[3].x() == 8);
    CHECK(view.timeToTargetSeries()->points()[3].y() ==
          Approx(model.data(model.index(3, ScalingModel::TimeToTargetSpeedup)).toDouble()));
    CHECK(visibleLegendEntries(view.chart()) == 5);
}

TEST_CASE("CollectivesModel shows each size of each sweep with time and bandwidths", "[ui][views]") {
    CollectivesModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setRecords(sampleSweeps());
    REQUIRE(model.rowCount() == 2 * 2 * 9);
    REQUIRE(model.columnCount() == CollectivesModel::ColumnCount);
    const QModelIndex first = model.index(0, CollectivesModel::Bytes);
    CHECK(first.data().toString() == "1 KiB");
    CHECK(first.data(Qt::UserRole).toLongLong() == 1024);
    CHECK(model.index(8, CollectivesModel::Bytes).data().toString() == "64 MiB");
    CHECK(model.index(0, CollectivesModel::TimeUs).data().toString() == "20.1");
    CHECK(model.index(0, CollectivesModel::InPlace).data().toString() == "out-of-place");
    CHECK(model.index(0, CollectivesModel::Correct).data().toString() == "yes");
    CHECK(CollectivesModel::sizeText(1536) == "1.5 KiB");
    CHECK(CollectivesModel::sizeText(3) == "3 B");

    RunResult sweep{"s", "allreduce-sweep", "none", 2, 0, RunStatus::Ok, "", RunFigures{}, sampleSweeps()};
    model.setResults({sweep, sampleTrainingSession()[0]});
    CHECK(model.rowCount() == 36);
}

TEST_CASE(
    "CollectivesChartView draws one line per sweep against a log2 size axis and switches busbw and algbw",
    "[ui][views]") {
    CollectivesView view;
    view.setRecords(sampleSweeps());
    showOffscreen(view);
    CollectivesChartView* chart = view.chartView();
    REQUIRE(chart->sweepSeries().size() == 4);
    // The legend names what tells the sweeps apart, the title what they share: four entries read whole, not
    // four "mpi allreduce float32 sum, ..." cut short.
    CHECK(chart->sweepSeries()[0]->name() == "mpi, 2 ranks");
    CHECK(chart->sweepSeries()[3]->name() == "nccl, 4 ranks");
    CHECK(chart->chart()->title().endsWith(": allreduce float32 sum"));
    const QList<QPointF> points = chart->sweepSeries()[3]->points();
    REQUIRE(points.size() == 9);
    const CollectiveRecord& last = sampleSweeps().back();
    CHECK(points.back().x() == Approx(26)); // 64 MiB = 2^26 bytes
    CHECK(points.back().y() == Approx(last.busbw_gbps));
    const QStringList labels = chart->sizeAxis()->categoriesLabels();
    CHECK(labels.contains("1 KiB"));
    CHECK(labels.contains("1 MiB"));
    CHECK(chart->sizeAxis()->titleText().contains("bytes"));
    CHECK(chart->bandwidthAxis()->titleText().startsWith("busbw (GB/s"));
    CHECK(chart->bandwidthAxis()->max() >= last.busbw_gbps);
    CHECK(visibleLegendEntries(chart->chart()) == 4);
    CHECK(legendClearOfPlot(chart->chart()));

    view.bandwidthChoice()->setCurrentIndex(1);
    CHECK(chart->bandwidth() == CollectivesChartView::Bandwidth::Algorithm);
    CHECK(chart->sweepSeries()[3]->points().back().y() == Approx(last.algbw_gbps));
    CHECK(chart->bandwidthAxis()->titleText().startsWith("algbw (GB/s"));

    auto* table = view.findChild<QTableView*>("collectiveTable");
    REQUIRE(table);
    CHECK(table->model()->rowCount() == 36);
    view.setRecords({});
    CHECK(chart->sweepSeries().empty());
    CHECK(chart->chart()->title() == "No collective sweeps to chart");
}

// Which rank is slow at which step, and on which node.
TEST_CASE(
    "the rank heat map holds a cell per rank and step relative to the step's median, ranks grouped by node "
    "and the slow rank marked",
    "[ui][views]") {
    RankHeatMapModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    const std::vector<std::string> hosts = {"nodeA", "nodeB", "nodeA", "nodeB"};
    model.setRankTimes(sampleRankTimes(), hosts);
    REQUIRE(model.rowCount() == 4);
    REQUIRE(model.columnCount() == 30);
    CHECK(model.rowRanks() == std::vector<int>{0, 2, 1, 3}); // nodeA's ranks, then nodeB's
    CHECK(model.headerData(1, Qt::Vertical).toString() == "2 nodeA slow");
    CHECK(model.headerData(0, Qt::Vertical).toString() == "0 nodeA");
    CHECK(model.headerData(1, Qt::Vertical, Qt::FontRole).value<QFont>().bold());
    CHECK(model.headerData(5, Qt::Horizontal).toLongLong() == 6); // the step
    CHECK(model.data(model.index(1, 5), RankHeatMapModel::SlowRole).toBool());
    CHECK_FALSE(model.data(model.index(0, 5), RankHeatMapModel::SlowRole).toBool());
    CHECK(model.data(model.index(1, 5), RankHeatMapModel::RankRole).toInt() == 2);
    // Step medians of 0.100, 0.101, 0.120, 0.103: 0.102.
    CHECK(model.data(model.index(1, 5), RankHeatMapModel::RelativeRole).toDouble() == Approx(0.120 / 0.102));
    const QColor slow = model.data(model.index(1, 5), Qt::BackgroundRole).value<QBrush>().color();
    const QColor typical = model.data(model.index(3, 5), Qt::BackgroundRole).value<QBrush>().color();
    CHECK(slow.red() == 255);
    CHECK(slow.green() < 200);
    CHECK(typical.green() > 240);
    const QString tip = model.data(model.index(1, 5), Qt::ToolTipRole).toString();
    CHECK(tip.startsWith("rank 2 on nodeA, step 6: compute 120.0 ms"));
    REQUIRE(model.finding().slow_nodes.size() == 1);
    CHECK(model.finding().slow_nodes[0] == "nodeA");

    // The Breakdown tab shows the heat map of the run it shows stragglers for, and names the slow rank.
    BreakdownTab tab;
    StoredSession session;
    RunRow run;
    run.id = 7;
    run.name = "resnet20-n4-r1";
    run.ranks = 4;
    run.header_json = R"({"type":"header","hosts":[{"rank":0,"host":"nodeA"},{"rank":1,"host":"nodeB"},)"
                      R"({"rank":2,"host":"nodeA"},{"rank":3,"host":"nodeB"}]})";
    session.runs.push_back(storedRun(run, {}, sampleRankTimes()));
    tab.setRuns(session);
    tab.showStragglers(0);
    showOffscreen(tab);
    auto* view = tab.findChild<RankHeatMapView*>("rankHeatMap");
    REQUIRE(view);
    CHECK(view->model()->rowCount() == 4);
    CHECK(view->model()->columnCount() == 30);
    CHECK(view->model()->headerData(1, Qt::Vertical).toString() == "2 nodeA slow");
    CHECK(tab.heatMapModel()->finding().slow_ranks.size() == 1);
    bool named = false;
    for (const QLabel* label : tab.findChildren<QLabel*>())
        named = named || label->text().contains("slow rank 2 on nodeA");
    CHECK(named);
    tab.clear();
    CHECK(view->model()->rowCount() == 0);
}

TEST_CASE("RankTimesModel and its chart show per-rank step, compute and wait, marking the slowest rank",
          "[ui][views]") {
    RankTimesModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setRankTimes(sampleRankTimes());
    REQUIRE(model.rowCount() == 4);
    CHECK(model.data(model.index(2, RankTimesModel::ComputeMs)).toDouble() == Approx(120));
    CHECK(model.data(model.index(2, RankTimesModel::WaitMs)).toDouble() == Approx(10));
    CHECK(model.data(model.index(0, RankTimesModel::WaitMs)).toDouble() == Approx(30));
    CHECK(model.data(model.index(2, RankTimesModel::Slowest)).toString() == "slowest");
    CHECK(model.data(model.index(1, RankTimesModel::Slowest)).toString().isEmpty());
    CHECK(model.data(model.index(2, RankTimesModel::Rank), Qt::FontRole).value<QFont>().bold());
    CHECK_FALSE(model.data(model.index(1, RankTimesModel::Rank), Qt::FontRole).isValid());

    RankTimesChartView view(&model);
    showOffscreen(view);
    CHECK(view.stepSeries()->count() == 4);
    CHECK(view.computeSeries()->at(2) == QPointF(2, 120));
    REQUIRE(view.slowestMarker()->count() == 1);
    CHECK(view.slowestMarker()->at(0) == QPointF(2, 120));
    CHECK(view.chart()->title().startsWith("Rank 2 slowest: 120.0 ms"));

    SECTION("ranks within 5 % of their median: none is called slowest (issue 25, finding 6)") {
        RankTimesModel even;
        std::vector<RankTimesRecord> records;
        for (int step = 1; step <= 20; ++step)
            records.push_back({step, {0.2926, 0.2926}, {0.2925, 0.2926}});
        even.setRankTimes(records);
        RankTimesChartView quiet(&even);
        showOffscreen(quiet);
        CHECK(quiet.chart()->title() == "No slow rank (292.5-292.6 ms)");
    }
    CHECK(view.timeAxis()->max() >= 130);
    CHECK(view.rankAxis()->max() >= 3);
    CHECK(legendClearOfPlot(view.chart()));
}

TEST_CASE("ComparisonModel colours the change by which way each figure improves, beyond the noise only",
          "[ui][views]") {
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    // Four repeats a side (two sessions' worth): enough for change or noise to call a change.
    const auto repeated = [](double speed) {
        auto runs = sampleTrainingSession(speed);
        const auto again = sampleTrainingSession(speed);
        runs.insert(runs.end(), again.begin(), again.end());
        return runs;
    };
    const auto rows = compareFigures(repeated(1.0), repeated(1.1)); // B 10% faster
    model.setComparison(rows, "last week", "tonight");
    REQUIRE(model.rowCount() == static_cast<int>(rows.size()));
    CHECK(model.headerData(ComparisonModel::A, Qt::Horizontal).toString() == "A");
    CHECK(model.headerData(ComparisonModel::A, Qt::Horizontal, Qt::ToolTipRole).toString() == "A: last week");
    auto find = [&](int ranks, const std::string& figure) {
        for (int row = 0; row < model.rowCount(); ++row)
            if (rows[static_cast<std::size_t>(row)].ranks == ranks &&
                rows[static_cast<std::size_t>(row)].figure == figure)
                return row;
        FAIL("no row " << figure);
        return -1;
    };
    const int throughput = find(4, "samples/s"), step = find(4, "step time"),
              hidden = find(1, "hidden communication");
    CHECK(model.index(throughput, ComparisonModel::Change).data().toString() == "+10.0% better");
    CHECK(model.index(throughput, ComparisonModel::Change).data(Qt::UserRole).toDouble() == Approx(10));
    auto background = [&](int row) {
        return model.index(row, ComparisonModel::Change).data(Qt::BackgroundRole).value<QBrush>().color();
    };
    CHECK(background(throughput).green() > background(throughput).red()); // more samples/s: better
    CHECK(background(step).green() > background(step).red());             // shorter steps: better too
    CHECK(model.index(step, ComparisonModel::Change).data().toString().startsWith("-9.")); // 1/1.1 - 1
    const int loss = find(4, "final loss");
    CHECK(model.index(loss, ComparisonModel::Change).data().toString() == "0.0% within noise");
    CHECK_FALSE(model.index(loss, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());

    // Two repeats a side cannot tell, however large the change: no colour.
    model.setComparison(compareFigures(sampleTrainingSession(1.0), sampleTrainingSession(1.5)), "a", "b");
    CHECK(model.index(throughput, ComparisonModel::Change).data().toString() == "+50.0% cannot tell");
    CHECK_FALSE(model.index(throughput, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());

    // The other way round, B is slower: worse, red.
    model.setComparison(compareFigures(repeated(1.1), repeated(1.0)), "a", "b");
    CHECK(background(throughput).red() > background(throughput).green());
    CHECK(background(step).red() > background(step).green());
    CHECK(model.index(hidden, ComparisonModel::Change).data().toString() == "A is 0: percent undefined");
    CHECK_FALSE(model.index(hidden, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());
}

TEST_CASE("SettingsDiffModel and ComparisonView list only the settings that differ", "[ui][views]") {
    SettingsDiffModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    ComparisonView view;
    QAbstractItemModelTester figures_tester(view.figuresModel(), kFatal);
    QAbstractItemModelTester settings_tester(view.settingsModel(), kFatal);
    const auto a = sampleComparedSession("last week", 1.0, "2.10.0", 200);
    auto b = sampleComparedSession("tonight", 1.1, "2.11.0", 400);
    b.cluster_json = R"({"name":"prod","host":"login2","partition":"gpu","account":"ml"})";
    view.setSessions(a, b);
    showOffscreen(view);

    SettingsDiffModel* settings = view.settingsModel();
    REQUIRE(settings->rowCount() == 3);
    auto cell = [&](int row, int column) { return settings->index(row, column).data().toString(); };
    CHECK(cell(0, SettingsDiffModel::Key) == "cluster.account");
    CHECK(cell(0, SettingsDiffModel::A) == "(not set)");
    CHECK(settings->index(0, SettingsDiffModel::A).data(Qt::FontRole).value<QFont>().italic());
    CHECK(cell(0, SettingsDiffModel::B) == "ml");
    CHECK(cell(1, SettingsDiffModel::Key) == "cluster.host");
    CHECK(cell(2, SettingsDiffModel::Key) == "plan.run[0].steps");
    CHECK(cell(2, SettingsDiffModel::B) == "400");
    CHECK(settings->headerData(SettingsDiffModel::B, Qt::Horizontal).toString() == "B: tonight");

    // What ran: the versions, and of the job script and the plan only their differing lines.
    QAbstractItemModelTester capsules_tester(view.capsulesModel(), kFatal);
    SettingsDiffModel* capsules = view.capsulesModel();
    REQUIRE(capsules->rowCount() == 3);
    auto capsule = [&](int row, int column) { return capsules->index(row, column).data().toString(); };
    CHECK(capsule(0, SettingsDiffModel::Key) == "job script");
    CHECK(capsule(0, SettingsDiffModel::A) == "line 3: srun scalebench-engine --steps 200");
    CHECK(capsule(0, SettingsDiffModel::B) == "line 3: srun scalebench-engine --steps 400");
    CHECK(capsule(1, SettingsDiffModel::Key) == "versions.libtorch");
    CHECK(capsule(1, SettingsDiffModel::B) == "2.11.0");
    CHECK(capsule(2, SettingsDiffModel::Key) == "plan");
    CHECK(capsule(2, SettingsDiffModel::A) == "line 5: steps = 200");
    CHECK(view.capsulesTable()->model() == capsules);

    CHECK(view.figuresModel()->rowCount() > 40);
    CHECK(view.figuresTable()->model() == view.figuresModel());
    CHECK(view.heading()->text().contains("last week"));
    CHECK(view.heading()->text().contains(" better, "));

    model.setDifferences(compareSettings(a, a), "a", "a");
    CHECK(model.rowCount() == 0);
}

TEST_CASE("SessionFilterModel keeps sessions whose name, cluster, status or date contain every word",
          "[ui][views]") {
    SessionListModel sessions;
    SessionFilterModel filter;
    filter.setSourceModel(&sessions);
    QAbstractItemModelTester tester(&filter, kFatal);
    sessions.setSessions(
        {{1, "nightly resnet", "2024-05-01T09:30:00Z", "", SessionStatus::Ok, "jean-zay", 4},
         {2, "nightly bert", "2024-05-02T09:30:00Z", "", SessionStatus::Failed, "jean-zay", 2},
         {3, "laptop check", "2024-06-11T18:00:00Z", "", SessionStatus::Ok, "local", 1}});
    auto names = [&] {
        QStringList out;
        for (int row = 0; row < filter.rowCount(); ++row)
            out << filter.index(row, SessionListModel::Name).data().toString();
        return out;
    };
    CHECK(filter.rowCount() == 3);
    filter.setSearchText("NIGHTLY");
    CHECK(names() == QStringList{"nightly resnet", "nightly bert"});
    filter.setSearchText("jean failed");
    CHECK(names() == QStringList{"nightly bert"});
    filter.setSearchText("2024-06");
    CHECK(names() == QStringList{"laptop check"});
    filter.setSearchText("local  ok");
    CHECK(names() == QStringList{"laptop check"});
    filter.setSearchText("slurm");
    CHECK(filter.rowCount() == 0);
    filter.setSearchText("");
    CHECK(filter.rowCount() == 3);
    // The source changing under the filter: rows follow.
    filter.setSearchText("nightly");
    sessions.setSessions({{9, "nightly gpt", "2024-07-01T00:00:00Z", "", SessionStatus::Running, "prod", 8}});
    CHECK(names() == QStringList{"nightly gpt"});
}

TEST_CASE("typing in the main window's search box narrows the session list to the matching sessions",
          "[ui][views]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    store.finishSession(store.createSession("nightly resnet", "[plan]", "jean-zay"), SessionStatus::Ok);
    store.finishSession(store.createSession("nightly bert", "[plan]", "jean-zay"), SessionStatus::Failed);
    store.finishSession(store.createSession("laptop check", "[plan]", "local"), SessionStatus::Ok);
    MainWindow window(store);
    QSignalSpy loaded(&window, &MainWindow::sessionShown);
    REQUIRE(loaded.wait(10'000));
    showOffscreen(window);
    auto* search = window.findChild<QLineEdit*>("sessionSearch");
    auto* table = window.findChild<QTableView*>("sessionTable");
    REQUIRE(search);
    REQUIRE(table);
    auto listed = [&] {
        QStringList names;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            names << table->model()->index(row, SessionListModel::Name).data().toString();
        return names;
    };
    REQUIRE(listed() == QStringList{"nightly resnet", "nightly bert", "laptop check"});

    // The session shown is always one the list shows (the newest, shown first, is searched away).
    auto shownIsListed = [&] {
        for (int row = 0; row < table->model()->rowCount(); ++row)
            if (table->model()->index(row, SessionListModel::Id).data().toLongLong() ==
                window.shownSessionId())
                return true;
        return false;
    };
    QTest::keyClicks(search, "nightly");
    CHECK(listed() == QStringList{"nightly resnet", "nightly bert"});
    CHECK(shownIsListed());
    QTest::keyClicks(search, " FAILED");
    CHECK(listed() == QStringList{"nightly bert"});
    CHECK(shownIsListed());
    QTest::keyClicks(search, "x");
    CHECK(listed().isEmpty());
    CHECK(window.shownSessionId() == 0);

    search->selectAll();
    QTest::keyClick(search, Qt::Key_Backspace);
    CHECK(listed() == QStringList{"nightly resnet", "nightly bert", "laptop check"});
}

TEST_CASE("chart views export to PNG of the asked size and to SVG holding the series", "[ui][views]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ScalingModel model;
    model.setPoints(sessionScaling(sampleTrainingSession()));
    SpeedupChartView view(&model);

    const QString png = dir.filePath("speedup.png");
    QString error;
    REQUIRE(saveWidgetPng(view, png, {800, 500}, &error));
    const QImage image(png);
    REQUIRE(!image.isNull());
    CHECK(image.size() == QSize(800, 500));
    CHECK_FALSE(view.isVisible()); // put back as it was

    const QString svg = dir.filePath("speedup.svg");
    REQUIRE(saveWidgetSvg(view, svg, {800, 500}, &error));
    QFile file(svg);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QDomDocument document;
    REQUIRE(document.setContent(&file));
    CHECK(document.documentElement().tagName() == "svg");
    const QString text = document.toString();
    CHECK(text.contains("ideal"));
    CHECK(text.contains("efficiency"));
    // Lines drawn as vectors, not one image.
    CHECK(document.elementsByTagName("polyline").size() + document.elementsByTagName("path").size() > 10);
    CHECK(document.elementsByTagName("image").isEmpty());

    CHECK_FALSE(saveWidgetPng(view, dir.filePath("missing/x.png"), {}, &error));
    CHECK(error.contains("missing/x.png"));
    CHECK_FALSE(saveWidgetSvg(view, dir.filePath("missing/x.svg"), {}, &error));
}

TEST_CASE("a table model exports to CSV with RFC 4180 quoting and reads back the same", "[ui][views]") {
    SessionListModel model;
    model.setSessions({{1, "plain", "2024-05-01T09:30:00Z", "", SessionStatus::Ok, "local", 4},
                       {2, "with, comma", "2024-05-02T09:30:00Z", "", SessionStatus::Ok, "say \"hi\"", 2},
                       {3, "two\nlines", "2024-05-03T09:30:00Z", "", SessionStatus::Failed, "", 0}});
    const QString csv = modelCsv(model);
    CHECK(csv.startsWith("Id,Name,Started (UTC),Status,Runs,Cluster\r\n"));
    CHECK(csv.contains("\"with, comma\""));
    CHECK(csv.contains("\"say \"\"hi\"\"\""));
    CHECK(csv.contains("\"two\nlines\""));

    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("sessions.csv");
    REQUIRE(saveModelCsv(model, path));
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const auto rows = parseCsv(QString::fromUtf8(file.readAll()));
    REQUIRE(rows.size() == 4);
    for (int row = 0; row < model.rowCount(); ++row) {
        REQUIRE(rows[static_cast<std::size_t>(row + 1)].size() == SessionListModel::ColumnCount);
        for (int column = 0; column < model.columnCount(); ++column)
            CHECK(rows[static_cast<std::size_t>(row + 1)][static_cast<std::size_t>(column)] ==
                  model.index(row, column).data().toString());
    }
    QString error;
    CHECK_FALSE(saveModelCsv(model, dir.filePath("missing/x.csv"), &error));
    CHECK_FALSE(error.isEmpty());
}

TEST_CASE("views take thousands of points in one reset without stalling", "[ui][views]") {
    // 4096 ranks, and 64 sweeps of 30 sizes.
    RankTimesModel ranks;
    RankTimesChartView rank_view(&ranks);
    std::vector<CollectiveRecord> records;
    for (int sweep = 0; sweep < 64; ++sweep)
        for (int i = 0; i < 30; ++i) {
            CollectiveRecord c;
            c.backend = sweep % 2 ? "nccl" : "mpi";
            c.collective = "allreduce";
            c.dtype = "float32";
            c.ranks = 2 + sweep;
            c.bytes = std::int64_t{4} << i;
            c.time_s = 1e-5 + c.bytes / 1e10;
            c.algbw_gbps = c.bytes / c.time_s / 1e9;
            c.busbw_gbps = c.algbw_gbps;
            records.push_back(c);
        }
    CollectivesModel collectives;
    CollectivesChartView collective_view(&collectives);
    showOffscreen(rank_view);
    showOffscreen(collective_view);

    const auto many_ranks = sampleRankTimes(4096);
    QElapsedTimer timer;
    timer.start();
    ranks.setRankTimes(many_ranks);
    collectives.setRecords(records);
    QCoreApplication::processEvents();
    (void)rank_view.grab();
    (void)collective_view.grab();
    const qint64 elapsed_ms = timer.elapsed();
    CHECK(rank_view.stepSeries()->count() == 4096);
    CHECK(collective_view.sweepSeries().size() == 64);
    INFO("reset and one paint took " << elapsed_ms << " ms");
    CHECK(elapsed_ms < 2000); // about 0.2 s here; a tick label per rank took 4 s
}

// Not run by ctest (hidden tag): renders every view at 1000x600 from sample data for looking at them.
// SCALEBENCH_SCREENSHOT_DIR=out scalebench_ui_tests "[.screenshots]"
TEST_CASE("every analysis view renders to a PNG for screenshots", "[.screenshots]") {
    const QString folder = qEnvironmentVariable("SCALEBENCH_SCREENSHOT_DIR", QStringLiteral("screenshots"));
    REQUIRE(QDir().mkpath(folder));
    const QSize size(1000, 600);

    BreakdownModel breakdown;
    breakdown.setResults(sampleTrainingSession());
    BreakdownChartView breakdown_view(&breakdown);
    CHECK(saveWidgetPng(breakdown_view, folder + "/breakdown.png", size));

    ScalingModel scaling;
    scaling.setPoints(sessionScaling(sampleTrainingSession()));
    SpeedupChartView speedup_view(&scaling);
    CHECK(saveWidgetPng(speedup_view, folder + "/speedup.png", size));
    CHECK(saveWidgetSvg(speedup_view, folder + "/speedup.svg", size));

    CollectivesView collectives;
    collectives.setRecords(sampleSweeps());
    CHECK(saveWidgetPng(collectives, folder + "/collectives.png", size));
    CollectivesModel many_sweeps;
    auto records = sampleSweeps();
    for (CollectiveRecord c : sampleSweeps()) {
        c.collective = "allgather";
        c.busbw_gbps = c.algbw_gbps * (c.ranks - 1) / c.ranks;
        records.push_back(c);
    }
    many_sweeps.setRecords(records);
    CollectivesChartView many_view(&many_sweeps);
    CHECK(saveWidgetPng(many_view, folder + "/collectives-8-sweeps.png", size));

    RankTimesModel rank_times;
    rank_times.setRankTimes(sampleRankTimes(8));
    RankTimesChartView rank_view(&rank_times);
    CHECK(saveWidgetPng(rank_view, folder + "/rank-times.png", size));
    rank_times.setRankTimes(sampleRankTimes(512));
    CHECK(saveWidgetPng(rank_view, folder + "/rank-times-512.png", size));

    ComparisonView comparison;
    auto b = sampleComparedSession("tonight", 1.1, "2.11.0", 400);
    b.cluster_json = R"({"name":"prod","host":"login2","partition":"gpu","account":"ml"})";
    comparison.setSessions(sampleComparedSession("last week", 1.0, "2.10.0", 200), b);
    CHECK(saveWidgetPng(comparison, folder + "/comparison.png", size));
}

// The Scaling tab charted every run of a workload as one series, whatever its settings.
TEST_CASE(
    "the Scaling tab charts one series at a time and offers the session's series by what tells them apart",
    "[ui][views]") {
    std::vector<RunResult> runs = sampleTrainingSession();
    std::vector<RunResult> bf16 = sampleTrainingSession(1.6);
    for (RunResult& r : runs)
        r.series = {r.workload, r.dataset, {{"precision", "fp32"}, {"steps", "100"}}};
    for (RunResult& r : bf16) {
        r.name += "-bf16";
        r.series = {r.workload, r.dataset, {{"precision", "bf16"}, {"steps", "100"}}};
    }
    runs.insert(runs.end(), bf16.begin(), bf16.end());

    ScalingTab tab;
    tab.setResults(runs);
    QComboBox* choice = tab.seriesChoice();
    REQUIRE(choice->count() == 2);
    CHECK(choice->itemText(0) == "resnet20 synthetic precision=bf16"); // steps are alike: not named
    CHECK(choice->itemText(1) == "resnet20 synthetic precision=fp32");
    CHECK(choice->isEnabled());
    REQUIRE(tab.model()->rowCount() == 4); // one series' four rank counts, never the eight runs pooled
    CHECK(tab.model()->seriesLabel() == choice->currentText());
    const double bf16_x0 = tab.model()->data(tab.model()->index(0, ScalingModel::SamplesPerS)).toDouble();
    choice->setCurrentIndex(1);
    REQUIRE(tab.model()->rowCount() == 4);
    CHECK(tab.model()->data(tab.model()->index(0, ScalingModel::SamplesPerS)).toDouble() ==
          Approx(bf16_x0 / 1.6));
    tab.setResults(runs); // a refresh keeps the chosen series
    CHECK(choice->currentIndex() == 1);
}

TEST_CASE(
    "File > Import reads MLPerf logs into a new session that the window then shows with each run's time "
    "to train, and names a file that gave nothing",
    "[ui][views][import]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    store.finishSession(store.createSession("today", "[plan]", "local"), SessionStatus::Ok);
    MainWindow window(store);
    QSignalSpy loaded(&window, &MainWindow::sessionShown);
    REQUIRE(loaded.wait(10'000));
    CHECK(hasAction(window, "&Import logs..."));

    const QString not_a_log = dir.filePath("notes.txt");
    {
        QFile notes(not_a_log);
        REQUIRE(notes.open(QIODevice::WriteOnly));
        notes.write("nothing an MLLOG reader reads\n");
    }
    ImportDialog dialog;
    auto* format = dialog.findChild<QComboBox*>("importFormat");
    auto* ranks = dialog.findChild<QSpinBox*>("importRanks");
    auto* session = dialog.findChild<QLineEdit*>("importSession");
    REQUIRE(format);
    REQUIRE(ranks);
    REQUIRE(session);
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    CHECK_FALSE(ok->isEnabled()); // no file yet
    dialog.setFiles({SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert_success.log",
                     SCALEBENCH_SOURCE_DIR "/tests/data/mllog/resnet_aborted.log", not_a_log});
    CHECK(ok->isEnabled());
    format->setCurrentText("mllog");
    ranks->setValue(8);
    dialog.findChild<QDoubleSpinBox*>("importPeak")->setValue(989);
    session->setText("last month's MLPerf");
    const ImportRequest request = dialog.request();
    CHECK(request.format == "mllog");
    CHECK(request.ranks == 8);
    CHECK(request.peak_tflops == 989);
    CHECK(request.files.size() == 3);

    // The import runs on the loader's thread: the window answers when it is done.
    QSignalSpy done(&window, &MainWindow::logsImported);
    window.importLogs(request);
    REQUIRE(done.wait(10'000));
    const std::int64_t imported = done.takeFirst().at(0).toLongLong();
    REQUIRE(imported > 0);
    REQUIRE(loaded.wait(10'000));
    CHECK(window.shownSessionId() == imported);
    auto* runs = window.findChild<QTableView*>("runTable");
    REQUIRE(runs);
    REQUIRE(runs->model()->rowCount() == 3);
    QStringList times;
    for (int row = 0; row < 3; ++row)
        times << runs->model()->index(row, RunTableModel::MlperfTimeToTrain).data().toString();
    CHECK(times == QStringList{"4.81 min (success, closed)", "2.83 min (aborted, closed)", "-"});
    auto* errors = window.findChild<QMessageBox*>("importErrors");
    REQUIRE(errors);
    CHECK_THAT(errors->text().toStdString(),
               Catch::Contains("notes: no record in") && Catch::Contains("notes.txt"));

    // A MaxText log with seed 003's peak: its tokens/s, days to 1T tokens and MFU (medians over the steady
    // state) in the Runs tab.
    ImportRequest maxtext{
        {SCALEBENCH_SOURCE_DIR "/tests/data/maxtext/llama2-70b-64gpu.log"}, "maxtext", "seed 003", 64, 989};
    window.importLogs(maxtext);
    REQUIRE(done.wait(10'000));
    REQUIRE(done.takeFirst().at(0).toLongLong() > imported);
    REQUIRE(loaded.wait(10'000));
    REQUIRE(runs->model()->rowCount() == 1);
    const auto shown = [&](int column) { return runs->model()->index(0, column).data().toString(); };
    CHECK(shown(RunTableModel::TokensPerS) == "65907");
    CHECK(shown(RunTableModel::DaysTo1T) == "175.61");
    CHECK(shown(RunTableModel::Mfu) == "46.29%");
}

TEST_CASE("the window fits a 1280x800 screen, on every tab (issue 25: it was 1455 wide)",
          "[ui][views][issue25]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    MainWindow window(store);
    showOffscreen(window, {1280, 800});
    // The Plan and Clusters tabs scroll there (form_widgets.h: scrollable) instead of widening the window to
    // 1455 pixels; at 1100 x 700 they show whole (test_plan_builder.cpp, test_clusters_ui.cpp).
    CHECK(window.minimumSizeHint().width() <= 1280);
    CHECK(window.minimumSizeHint().height() <= 800);
    CHECK(window.width() == 1280);
}

TEST_CASE("the Live legends name what tells the runs apart, the titles what they share",
          "[ui][views][issue25]") {
    // Four "resnet20-fashi..." legend entries, cut alike, were four runs of one workload.
    const RunLegendNames names = runLegendNames(
        {"resnet20-fashion-mnist-n1-r1", "resnet20-fashion-mnist-n1-r2", "resnet20-fashion-mnist-n2-r1"});
    CHECK(names.common == "resnet20-fashion-mnist");
    CHECK(names.names == QStringList{"n1-r1", "n1-r2", "n2-r1"});
    CHECK(runLegendNames({"a-n1", "b-n1"}).common.isEmpty());
    CHECK(runLegendNames({"resnet20-n1"}).names == QStringList{"resnet20-n1"}); // one run: its whole name
    CHECK(runLegendNames({"x-n1", "x-n1-r2"}).names == QStringList{"n1", "n1-r2"});
}
