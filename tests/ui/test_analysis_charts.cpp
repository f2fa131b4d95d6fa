// The analysis charts offscreen: breakdown, speedup, collectives, stragglers (the rank heat map and per-rank
// times), the Scaling tab's series, the Live legends, and thousands of points in one reset. Each model runs
// under QAbstractItemModelTester; each view is checked for what it shows (series, points, axes, legend).
#include "analysis_view_samples.h"
#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "breakdown_tab.h"
#include "collectives_chart_view.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "live_view.h"
#include "rank_heat_map_model.h"
#include "rank_heat_map_view.h"
#include "rank_times_chart_view.h"
#include "rank_times_model.h"
#include "scaling_model.h"
#include "scaling_tab.h"
#include "speedup_chart_view.h"
#include "stored_session_loader.h"

#include <QAbstractItemModelTester>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTableView>
#include <QValueAxis>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

int visibleLegendEntries(QChart* chart) {
    int count = 0;
    for (QLegendMarker* marker : chart->legend()->markers())
        count += marker->isVisible();
    return count;
}

bool legendClearOfPlot(QChart* chart) {
    return !chart->legend()->geometry().intersects(chart->plotArea());
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

    // A reduction shows its op; all-gather reduces nothing: "none", as nccl-tests prints its redop.
    CHECK(model.index(0, CollectivesModel::Op).data().toString() == "sum");
    std::vector<CollectiveRecord> gather = sampleSweeps();
    for (CollectiveRecord& c : gather)
        c.collective = "allgather";
    model.setRecords(gather);
    CHECK(model.index(0, CollectivesModel::Op).data().toString() == "none");
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

    SECTION("ranks within 5 % of their median: none is called slowest") {
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

TEST_CASE("the Live legends name what tells the runs apart, the titles what they share", "[ui][views]") {
    // Four "resnet20-fashi..." legend entries, cut alike, were four runs of one workload.
    const RunLegendNames names = runLegendNames(
        {"resnet20-fashion-mnist-n1-r1", "resnet20-fashion-mnist-n1-r2", "resnet20-fashion-mnist-n2-r1"});
    CHECK(names.common == "resnet20-fashion-mnist");
    CHECK(names.names == QStringList{"n1-r1", "n1-r2", "n2-r1"});
    CHECK(runLegendNames({"a-n1", "b-n1"}).common.isEmpty());
    CHECK(runLegendNames({"resnet20-n1"}).names == QStringList{"resnet20-n1"}); // one run: its whole name
    CHECK(runLegendNames({"x-n1", "x-n1-r2"}).names == QStringList{"n1", "n1-r2"});
}
