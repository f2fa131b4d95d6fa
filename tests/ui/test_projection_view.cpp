// The Scaling tab's Projection page offscreen, on the recorded session of tests/data/projection (ResNet-20 at
// 1 and 2 ranks and the MPI all-reduce sweep): the loader hands the session's model inputs over, and the
// chart and table show what project() and formatProjection say of them; without a sweep they say why.
#include "performance_model.h"
#include "projection_chart_view.h"
#include "projection_fixture.h"
#include "scaling_tab.h"
#include "session_projection.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QCoreApplication>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPlainTextEdit>
#include <QScatterSeries>
#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <sstream>

using namespace scalebench;

namespace {

// The y of the series' point at rank count x, if it has one.
std::optional<double> valueAt(const QXYSeries* series, double x) {
    for (const QPointF& p : series->points())
        if (p.x() == x) return p.y();
    return std::nullopt;
}

bool legendShows(QChart* chart, QAbstractSeries* series) {
    const auto markers = chart->legend()->markers(series);
    return !markers.isEmpty() && markers.front()->isVisible();
}

} // namespace

TEST_CASE("the Scaling tab's Projection page charts the model's prediction of the shown series",
          "[ui][model]") {
    TemporaryFolder folder;
    const std::filesystem::path db = folder.path / "sessions.db";
    std::int64_t id = 0;
    {
        SessionStore store(db);
        id = storeProjectionFixture(store);
    }
    StoredSessionLoader loader(db);
    QSignalSpy loaded(&loader, &StoredSessionLoader::sessionLoaded);
    loader.loadSession(id);
    REQUIRE(loaded.wait(10000));
    const auto session = loaded.takeFirst().at(0).value<StoredSession>();
    REQUIRE(session.error.isEmpty());
    CHECK(session.projection_error.isEmpty());
    REQUIRE(session.projection_inputs.size() == 1);
    const ModelInputs& in = session.projection_inputs[0].inputs;

    ScalingTab tab;
    tab.setResults(session.results);
    tab.setProjectionInputs(session.projection_inputs, session.projection_error);
    tab.showProjectionPage();
    tab.setAttribute(Qt::WA_DontShowOnScreen); // shown: the legend lays out its markers
    tab.resize(1200, 800);
    tab.show();
    QCoreApplication::processEvents();
    CHECK(tab.seriesChoice()->currentText() == "resnet20 fashion-mnist");
    CHECK(tab.projectTo()->objectName() == "projectTo");
    CHECK(tab.projectTo()->currentText() == "64");

    const std::vector<Projection> rows = project(in, {1, 2, 4, 8, 16, 32, 64});
    REQUIRE(rows[2].extrapolated); // 4 ranks: the first beyond the measured, on a 2-CPU node
    REQUIRE_FALSE(rows[1].extrapolated);
    const double x0 = in.measured[0].samples_per_s.mean; // N0 = 1
    ProjectionChartView* chart = tab.projectionChart();
    CHECK(chart->chart()->title().contains("resnet20 fashion-mnist"));
    CHECK(chart->ranksAxis()->base() == 2);
    CHECK(chart->ranksAxis()->max() > 64);

    // Solid to the first extrapolated rank count, dashed from there on.
    QLineSeries* predicted = chart->predictedSeries();
    QLineSeries* extrapolated = chart->extrapolatedSeries();
    CHECK(predicted->count() == 3);
    REQUIRE(extrapolated->count() == 5);
    CHECK(extrapolated->at(0).x() == 4);
    CHECK(extrapolated->pen().style() == Qt::DashLine);
    CHECK(predicted->pen().style() == Qt::SolidLine);
    CHECK(valueAt(predicted, 4).value_or(-1) == Approx(rows[2].speedup));
    CHECK(valueAt(extrapolated, 4).value_or(-1) == Approx(rows[2].speedup));
    CHECK(valueAt(extrapolated, 8).value_or(-1) == Approx(rows[3].speedup));
    CHECK(extrapolated->at(4).x() == 64);

    // The band: project()'s samples_low and samples_high against X(N0), lighter where it extrapolates.
    QAreaSeries* band = chart->bandSeries();
    QAreaSeries* far = chart->extrapolatedBandSeries();
    CHECK(valueAt(band->upperSeries(), 2).value_or(-1) == Approx(rows[1].samples_high / x0));
    CHECK(valueAt(band->lowerSeries(), 2).value_or(-1) == Approx(rows[1].samples_low / x0));
    CHECK(valueAt(far->upperSeries(), 8).value_or(-1) == Approx(rows[3].samples_high / x0));
    CHECK(valueAt(far->lowerSeries(), 8).value_or(-1) == Approx(rows[3].samples_low / x0));
    CHECK(far->color().alpha() < band->color().alpha());

    // Measured speedups with two-sigma error bars, and the ideal line.
    QScatterSeries* measured = chart->measuredSeries();
    REQUIRE(measured->count() == 2);
    const double s2 = in.measured[1].samples_per_s.mean / x0,
                 sigma2 = in.measured[1].samples_per_s.two_sigma() / x0;
    CHECK(valueAt(measured, 2).value_or(-1) == Approx(s2));
    REQUIRE(chart->errorBars().size() == 2);
    const QLineSeries* bar = chart->errorBars()[1];
    CHECK(bar->at(2) == QPointF(2, std::max(0.0, s2 - sigma2)));
    CHECK(bar->at(3).y() == Approx(s2 + sigma2));
    CHECK(valueAt(chart->idealSeries(), 64).value_or(-1) == 64);

    QChart* c = chart->chart();
    CHECK(predicted->name() == "predicted");
    CHECK(extrapolated->name() == "extrapolated");
    CHECK(measured->name() == "measured");
    CHECK(chart->idealSeries()->name().startsWith("ideal"));
    for (QAbstractSeries* shown :
         std::initializer_list<QAbstractSeries*>{predicted, extrapolated, measured, chart->idealSeries()})
        CHECK(legendShows(c, shown));
    int entries = 0;
    for (QLegendMarker* marker : c->legend()->markers())
        entries += marker->isVisible();
    CHECK(entries == 4); // neither the bands nor each error bar
    CHECK_FALSE(legendShows(c, band));
    CHECK_FALSE(legendShows(c, chart->errorBars()[0]));

    // The table: formatProjection for the same rank counts, its notes with it.
    QPlainTextEdit* table = tab.projectionTable();
    CHECK(table->objectName() == "projectionTable");
    CHECK(table->isReadOnly());
    CHECK(table->toPlainText().toStdString() == formatProjection(in, rows));
    CHECK(table->toPlainText().contains("more ranks on a node than its 2 CPUs"));
    CHECK(table->toPlainText().contains("beyond the largest measured rank count"));

    // A smaller N: the curve ends there.
    tab.projectTo()->setCurrentText("8");
    REQUIRE(extrapolated->count() == 2);
    CHECK(extrapolated->at(1).x() == 8);
    CHECK(table->toPlainText().toStdString() == formatProjection(in, project(in, {1, 2, 4, 8})));
}

TEST_CASE("without a sweep the Projection page names what the model misses", "[ui][model]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");
    const SessionRow session = *store.session(storeProjectionFixture(store));
    std::vector<SeriesModelInputs> inputs = sessionModelInputs(store, session);
    REQUIRE(inputs.size() == 1);
    inputs[0].inputs.sweep.clear();

    ScalingTab tab;
    tab.setResults({}); // no measured series: the label alone matters
    tab.seriesChoice()->addItem(QString::fromStdString(inputs[0].label));
    tab.setProjectionInputs(inputs);
    ProjectionChartView* chart = tab.projectionChart();
    CHECK(chart->chart()->title().contains("no all-reduce sweep"));
    CHECK(tab.projectionTable()->toPlainText().contains("no all-reduce sweep"));
    CHECK(chart->predictedSeries()->count() == 0);
    CHECK(chart->extrapolatedSeries()->count() == 0);
    CHECK(chart->errorBars().empty());

    tab.setProjectionInputs({}, "disk I/O error");
    CHECK(chart->chart()->title().contains("disk I/O error"));
}

TEST_CASE("an MLPerf result's Projection page says why it has nothing to project", "[ui][model]") {
    // Nine BERT runs with times to train: a good result, and no step times for the model.
    std::vector<RunResult> results;
    for (int k = 0; k < 9; ++k) {
        RunResult r{"bert-" + std::to_string(k), "bert", "", 8, k, RunStatus::Ok, "", {}};
        r.mlperf_time_to_train_min = 25 + k * 0.1;
        r.mlperf_status = "success";
        r.mlperf_benchmark = "bert";
        results.push_back(r);
    }
    ScalingTab tab;
    tab.setResults(results);
    tab.setProjectionInputs({});
    const std::string text = tab.projectionTable()->toPlainText().toStdString();
    CHECK_THAT(text, Catch::Contains("'bert' is an MLPerf result: its runs give times to train"));
    CHECK_THAT(text, !Catch::Contains("no training series with successful runs"));
}
