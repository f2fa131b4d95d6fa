// Cost in the window, offscreen, on the recorded session of tests/data/projection stored as run on a cluster
// with a price per GPU-hour: the Projection page's cost-against-time-to-train chart with its points labelled
// N and the cheapest N for a deadline, the run table's Cost column and the report's cost table.
#include "cluster_settings.h"
#include "cost_chart_view.h"
#include "performance_model.h"
#include "projection_fixture.h"
#include "run_cost.h"
#include "run_table_model.h"
#include "scaling_tab.h"
#include "session_report.h"
#include "session_results.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>

using namespace scalebench;

namespace {

// The fixture as run on a cluster of 64 ranks a node (the projection's layout is this machine's, one node,
// up to 64 ranks) at `price` EUR per GPU-hour.
std::string pricedCluster(double price) {
    ClusterSettings c;
    c.name = "fixture-cluster";
    c.host = "head.example.org";
    c.tasks_per_node = 64;
    c.price_per_gpu_hour = price;
    c.currency = "EUR";
    return clusterToJson(c);
}

StoredSession loaded(const std::filesystem::path& db, std::int64_t id) {
    StoredSessionLoader loader(db);
    QSignalSpy spy(&loader, &StoredSessionLoader::sessionLoaded);
    loader.loadSession(id);
    REQUIRE(spy.wait(10000));
    return spy.takeFirst().at(0).value<StoredSession>();
}

} // namespace

TEST_CASE("the Projection page charts cost against time to train and marks the cheapest N for a deadline",
          "[ui][model][cost]") {
    TemporaryFolder folder;
    const std::filesystem::path db = folder.path / "sessions.db";
    std::int64_t id = 0;
    {
        SessionStore store(db);
        id = storeProjectionFixture(store, pricedCluster(3));
    }
    const StoredSession session = loaded(db, id);
    REQUIRE(session.projection_inputs.size() == 1);

    ScalingTab tab;
    tab.setResults(session.results);
    tab.setProjectionInputs(session.projection_inputs, session.projection_error);
    tab.showProjectionPage();
    tab.setAttribute(Qt::WA_DontShowOnScreen);
    tab.resize(1400, 900);
    tab.show();
    QCoreApplication::processEvents();
    CostChartView* chart = tab.costChart();
    // The cluster's price; no samples to train yet: nothing to chart, and the chart says why.
    CHECK(tab.pricePerGpuHour()->value() == 3);
    CHECK(tab.samplesToTrain()->value() == 0);
    CHECK(chart->pointSeries()->count() == 0);
    CHECK(chart->chart()->title().contains("samples to train"));

    tab.samplesToTrain()->setValue(6e6);
    // Every rank count the page projects (64: 1 to 64 in powers of two), one point each, labelled N.
    ModelInputs in = session.projection_inputs[0].inputs;
    in.samples_to_train = 6e6;
    const std::vector<Projection> rows = project(in, {1, 2, 4, 8, 16, 32, 64});
    REQUIRE(chart->pointSeries()->count() == 7);
    CHECK(chart->pointLabels() == QStringList{"1", "2", "4", "8", "16", "32", "64"});
    for (int i = 0; i < 7; ++i) {
        INFO("N = " << rows[i].ranks);
        CHECK(chart->pointSeries()->at(i).x() == Approx(rows[i].time_to_train_s / 3600));
        CHECK(chart->pointSeries()->at(i).y() == Approx(rows[i].cost_to_train));
        CHECK(rows[i].cost_to_train == Approx(rows[i].ranks * 3 * rows[i].time_to_train_s / 3600));
    }
    CHECK(chart->costSeries()->count() == 7);
    CHECK(chart->pickSeries()->count() == 0); // no deadline yet
    CHECK(chart->chart()->title().contains("resnet20 fashion-mnist"));
    CHECK(chart->costAxis()->titleText().contains("EUR"));
    CHECK(tab.projectionTable()->toPlainText().contains("cost/train EUR"));

    // A deadline that 1 and 2 ranks miss: the cheapest of those that meet it.
    const double deadline_h = std::round(rows[2].time_to_train_s / 3600 * 1.02 * 100) / 100;
    REQUIRE(rows[1].time_to_train_s / 3600 > deadline_h);
    tab.deadlineHours()->setValue(deadline_h);
    const std::optional<Projection> pick = cheapestForDeadline(rows, deadline_h * 3600);
    REQUIRE(pick);
    CHECK(pick->ranks >= 4);
    REQUIRE(chart->pickSeries()->count() == 1);
    CHECK(chart->pickSeries()->at(0).x() == Approx(pick->time_to_train_s / 3600));
    CHECK(chart->pickSeries()->at(0).y() == Approx(pick->cost_to_train));
    REQUIRE(chart->deadlineSeries()->count() == 2);
    CHECK(chart->deadlineSeries()->at(0).x() == Approx(deadline_h));
    CHECK(tab.cheapestText()->text() == QStringLiteral("cheapest for %1 h: %2 ranks, %3 EUR")
                                            .arg(QString::number(deadline_h, 'g', 4))
                                            .arg(pick->ranks)
                                            .arg(pick->cost_to_train, 0, 'f', 2));

    // A deadline none meets; then no price.
    tab.deadlineHours()->setValue(0.01);
    CHECK(chart->pickSeries()->count() == 0);
    CHECK(tab.cheapestText()->text().contains("no N up to 64 trains within 0.01 h"));
    tab.pricePerGpuHour()->setValue(0);
    CHECK(chart->pointSeries()->count() == 0);
    CHECK(chart->chart()->title().contains("no price per GPU-hour"));
}

TEST_CASE("the report has each run's cost at the cluster's price, and no cost section without one",
          "[ui][report][cost]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");
    const SessionRow priced = *store.session(storeProjectionFixture(store, pricedCluster(2)));
    const std::vector<RunResult> results = loadSessionResults(store, priced.id);
    const QString html = sessionReportHtml(priced, results);
    CHECK(html.contains("<section id=\"cost\">"));
    CHECK(html.contains("<th>cost EUR</th>"));
    double total = 0;
    for (const RunResult& r : results)
        total += runCost(r, sessionPrice(priced)).value_or(0);
    CHECK(total > 0);
    CHECK(html.contains(QStringLiteral("<td>%1</td></tr>").arg(total, 0, 'f', 2)));
    CHECK(html.contains("2.00 EUR per GPU-hour"));

    const SessionRow here = *store.session(storeProjectionFixture(store));
    CHECK_FALSE(sessionReportHtml(here, loadSessionResults(store, here.id)).contains("id=\"cost\""));
}

TEST_CASE("the Runs tab's run table has each run's cost where the session's cluster has a price",
          "[ui][cost]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");
    const SessionRow priced = *store.session(storeProjectionFixture(store, pricedCluster(2)));
    const std::vector<RunResult> results = loadSessionResults(store, priced.id);
    RunTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResults(results, sessionPrice(priced));
    REQUIRE(model.rowCount() == 6);
    CHECK(model.headerData(RunTableModel::Cost, Qt::Horizontal).toString() == "Cost EUR");
    for (int row = 0; row < model.rowCount(); ++row) {
        const RunResult& r = results[static_cast<std::size_t>(row)];
        const double cost = r.ranks * *r.wall_s / 3600 * 2;
        CHECK(model.data(model.index(row, RunTableModel::Cost), Qt::UserRole).toDouble() == Approx(cost));
        CHECK(model.data(model.index(row, RunTableModel::Cost)).toString() == QString::number(cost, 'f', 2));
    }
    model.setResults(results); // no price: no cost
    CHECK(model.data(model.index(0, RunTableModel::Cost)).toString() == "-");
    CHECK_FALSE(model.data(model.index(0, RunTableModel::Cost), Qt::UserRole).isValid());
}
