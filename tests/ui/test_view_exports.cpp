// Export of the analysis views: chart views to PNG of the asked size and to SVG holding the series, table
// models to CSV with RFC 4180 quoting, and every view rendered to a PNG for screenshots (a hidden tag).
#include "analysis_view_samples.h"
#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "chart_export.h"
#include "collectives_chart_view.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "comparison_view.h"
#include "model_csv.h"
#include "rank_times_chart_view.h"
#include "rank_times_model.h"
#include "scaling_model.h"
#include "session_list_model.h"
#include "speedup_chart_view.h"

#include <QDir>
#include <QDomDocument>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <vector>

using namespace scalebench;

namespace {

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
