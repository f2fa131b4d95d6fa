// Compare tells a change from noise (grey "within noise", "cannot tell", never
// red or green inside the noise), and exports are for reports (a suggested file name, tables whole as PNG
// and SVG, CSV with plain numbers, units in the headers and every identifying column).
#include "breakdown_model.h"
#include "collectives_model.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "main_window.h"
#include "model_csv.h"
#include "projection_fixture.h"
#include "run_progress_model.h"
#include "scaling_model.h"
#include "session_store.h"
#include "stored_session_loader.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QDate>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <map>

using namespace scalebench;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// The quickstart's shape: resnet20 at 1 and 2 ranks, `repeats` repeats, each figure wobbling by up to +-3 %:
// the same plan run again gives another such session.
std::vector<RunResult> quickstartRuns(int repeats, std::uint32_t seed) {
    std::vector<RunResult> runs;
    for (int ranks : {1, 2})
        for (int repeat = 1; repeat <= repeats; ++repeat) {
            seed = seed * 1664525u + 1013904223u;
            const double wobble = 1 + 0.03 * ((seed >> 8) % 2001 / 1000.0 - 1);
            RunResult r{"resnet20-n" + std::to_string(ranks) + "-r" + std::to_string(repeat),
                        "resnet20",
                        "fashion-mnist",
                        ranks,
                        repeat,
                        RunStatus::Ok,
                        "",
                        {}};
            const double step_s = 0.150 / wobble * (ranks == 1 ? 1.0 : 1.05);
            r.figures.steady_steps = 100;
            r.figures.samples_per_s = 128 * ranks / step_s;
            // Exposed communication is small and noisy: +71 % of almost nothing was called worse.
            const double comm = ranks == 1 ? 0.0 : 0.002 * wobble * wobble;
            r.figures.breakdown = {step_s, 0.1 * step_s, 0.3 * step_s, 0.5 * step_s - comm,
                                   comm,   0.1 * step_s, 0.01};
            r.figures.final_loss = 0.42;
            r.figures.final_eval = 0.83;
            runs.push_back(r);
        }
    return runs;
}

QColor changeColour(const ComparisonModel& model, int row, int role) {
    return model.index(row, ComparisonModel::Change).data(role).value<QBrush>().color();
}

// A run at a steady throughput, stored as the engine streams it.
void storeRun(SessionStore& store, std::int64_t session, int ranks, double samples_per_s) {
    const auto run =
        store.createRun(session, {"resnet20-fashion-mnist-n" + std::to_string(ranks) + "-r1", "resnet20",
                                  "fashion-mnist", ranks, 1, "scalebench-engine ..."});
    store.startRun(run, "1");
    std::vector<MetricRecord> records;
    for (int i = 1; i <= 30; ++i) {
        const double step_s = 128 * ranks / samples_per_s;
        records.push_back(StepRecord{i, 2.0 / i, samples_per_s, step_s, 0.1 * step_s, 0.3 * step_s,
                                     0.4 * step_s, 0.15 * step_s, 0.05 * step_s, i * step_s, 0.0, 0.0, 0.0,
                                     std::nullopt});
    }
    records.push_back(EvalRecord{30, "accuracy", 0.85, 0.4, 30 * 128 * ranks / samples_per_s});
    store.appendRecords(run, records);
    store.finishRun(run, {RunStatus::Ok, "", 0, ""});
}

std::int64_t storeSession(SessionStore& store, const std::string& name, int steps, double speed) {
    const std::string plan =
        "name = \"" + name +
        "\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4, 8]\nsteps = " + std::to_string(steps) + "\n";
    const auto session = store.createSession(name, plan, "local");
    for (int ranks : {1, 2, 4, 8})
        storeRun(store, session, ranks, 850 * ranks * speed * (ranks == 1 ? 1.0 : 0.9));
    store.finishSession(session, SessionStatus::Ok);
    return session;
}

// The field of `line` in the column named `name`; the test stops, naming it, when there is no such column.
QString field(const QStringList& header, const QStringList& line, const char* name) {
    const auto column = header.indexOf(QString::fromLatin1(name));
    INFO("no column " << name);
    REQUIRE(column >= 0);
    REQUIRE(column < line.size());
    return line[column];
}

QString fileText(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QString::fromUtf8(file.readAll());
}

// The header's names and the first line's fields (no quoted fields in these files).
std::pair<QStringList, QStringList> firstCsvLine(const QString& csv) {
    const QStringList lines = csv.split(QStringLiteral("\r\n"));
    REQUIRE(lines.size() >= 2);
    return {lines[0].split(QLatin1Char(',')), lines[1].split(QLatin1Char(','))};
}

// A window over a store of two sessions of the same plan but the steps, showing their comparison.
struct ComparedWindow {
    QTemporaryDir dir;
    SessionStore store;
    std::int64_t a, b;
    MainWindow window;
    ComparedWindow()
        : store(dir.filePath("sessions.sqlite").toStdString()), a(storeSession(store, "monday", 200, 1.0)),
          b(storeSession(store, "tuesday", 400, 1.02)), window(store) {
        // Listed, the newest (B) is compared against the one before it (A) without asking.
        QSignalSpy compared(window.storedSessions(), &StoredSessionLoader::sessionsCompared);
        window.resize(1280, 800);
        while (window.comparisonView()->figuresModel()->rowCount() == 0 && compared.wait(10'000)) {
        }
        REQUIRE(window.comparisonView()->figuresModel()->rowCount() > 0);
        window.showTab(QStringLiteral("compareTab"));
    }
};

} // namespace

TEST_CASE("Compare: the same plan run twice is within noise or cannot tell, grey, never green or red",
          "[ui][compare]") {
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    for (const int repeats : {2, 5}) {
        INFO(repeats << " repeats a side");
        const std::string expected = repeats < kLeastRepeatsForChange ? "cannot tell" : "within noise";
        model.setComparison(compareFigures(quickstartRuns(repeats, 1), quickstartRuns(repeats, 7)), "A", "B");
        REQUIRE(model.rowCount() > 20);
        for (int row = 0; row < model.rowCount(); ++row) {
            const FigureComparison& f = model.rows()[static_cast<std::size_t>(row)];
            INFO(f.figure << " at " << f.ranks << ": "
                          << model.index(row, ComparisonModel::Change).data().toString().toStdString());
            if (!f.percent) continue; // A is 0 (hidden communication at 1 rank): says so
            CHECK(model.index(row, ComparisonModel::Change)
                      .data()
                      .toString()
                      .endsWith(QString::fromStdString(expected)));
            CHECK_FALSE(model.index(row, ComparisonModel::Change).data().toString().startsWith("-0.0"));
            CHECK_FALSE(model.index(row, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());
            const QColor text = changeColour(model, row, Qt::ForegroundRole);
            CHECK(text.red() == text.green()); // grey
            CHECK(text.green() == text.blue());
            // The interval (or why there is none) in the tooltip.
            const QString tip = model.index(row, ComparisonModel::Change).data(Qt::ToolTipRole).toString();
            CHECK(tip.contains(repeats < kLeastRepeatsForChange ? "cannot tell" : "95 % bootstrap"));
        }
    }
    CHECK(ComparisonModel::percentText(-0.01) == "0.0%");
    CHECK(ComparisonModel::percentText(10) == "+10.0%");

    // The heading counts every judgement.
    ComparisonView view;
    ComparedSession a{"monday", quickstartRuns(2, 1)}, b{"tuesday", quickstartRuns(2, 7)};
    view.setSessions(a, b);
    const QString heading = view.heading()->text();
    INFO(heading.toStdString());
    CHECK(heading.contains("0 better, 0 worse, 0 within noise, "));
    CHECK(heading.contains(" cannot tell"));
    CHECK_FALSE(heading.contains("better in B"));
}

TEST_CASE("every export dialog suggests a file name of the session, the tab and the date", "[ui][export]") {
    ComparedWindow w;
    const QString today = QDate::currentDate().toString(Qt::ISODate);
    CHECK(w.window.suggestedExportName(QStringLiteral("csv")) ==
          QStringLiteral("session-%1-vs-%2-compare-%3.csv").arg(w.a).arg(w.b).arg(today));
    REQUIRE(w.window.selectSession(w.b));
    w.window.showTab(QStringLiteral("scalingTab"));
    CHECK(w.window.suggestedExportName(QStringLiteral("png")) ==
          QStringLiteral("session-%1-scaling-%2.png").arg(w.b).arg(today));
    CHECK(w.window.suggestedExportName(QStringLiteral("html"), QStringLiteral("report")) ==
          QStringLiteral("session-%1-report-%2.html").arg(w.b).arg(today));
}

TEST_CASE("Compare exports every row of its tables as PNG and SVG, drawn from the models, not grabbed",
          "[ui][export]") {
    ComparedWindow w;
    const ComparisonModel* figures = w.window.comparisonView()->figuresModel();
    const int rows = figures->rowCount();
    REQUIRE(rows > 40); // more than the window shows at 1280x800
    const QString svg_path = w.dir.filePath("compare.svg");
    REQUIRE(w.window.exportCurrentTab(svg_path));
    const QString svg = fileText(svg_path);
    // The last row's figure, the first's, and the settings table: all in the drawing.
    for (const int row : {0, rows / 2, rows - 1}) {
        const QString figure = figures->index(row, ComparisonModel::Figure).data().toString();
        INFO("row " << row << ": " << figure.toStdString());
        CHECK(svg.contains(figure.toHtmlEscaped()));
    }
    CHECK(svg.contains("plan.run[0].steps"));
    CHECK(svg.count(QStringLiteral("resnet20")) >= rows);

    const QString png_path = w.dir.filePath("compare.png");
    REQUIRE(w.window.exportCurrentTab(png_path));
    const QImage png(png_path);
    REQUIRE_FALSE(png.isNull());
    CHECK(png.height() > rows * 12); // every row, not the window's 800 pixels
}

TEST_CASE("Compare's CSV holds plain numbers, units in its headers, both sessions and the settings table",
          "[ui][export]") {
    ComparedWindow w;
    const QString path = w.dir.filePath("compare.csv");
    REQUIRE(w.window.exportCurrentTab(path));
    const QString csv = fileText(path);
    const auto [header, first] = firstCsvLine(csv);
    INFO(csv.left(600).toStdString());
    CHECK(header.mid(0, 8) ==
          QStringList{"session_a", "session_b", "workload", "dataset", "series", "ranks", "figure", "unit"});
    CHECK(header.contains("a"));
    CHECK(header.contains("change_percent"));
    CHECK(header.contains("judgement"));
    CHECK(field(header, first, "session_a") == QStringLiteral("%1 monday").arg(w.a));
    CHECK(field(header, first, "workload") == "resnet20");
    CHECK(field(header, first, "dataset") == "fashion-mnist");
    bool number = false;
    field(header, first, "a").toDouble(&number);
    CHECK(number);
    CHECK_FALSE(csv.contains(" ms"));
    CHECK_FALSE(csv.contains(QRegularExpression(QStringLiteral("[0-9]%")))); // "+10.0%" is the screen's
    field(header, first, "change_percent").toDouble(&number);
    CHECK(number);

    // The settings that differ, in a file beside it.
    const QString settings = fileText(w.dir.filePath("compare-settings.csv"));
    CHECK(settings.startsWith("session_a,session_b,key,a,b\r\n"));
    CHECK(settings.contains("plan.run[0].steps,200,400"));
}

TEST_CASE("the Scaling CSV names session, workload and dataset and leaves two sigma empty for one repeat",
          "[ui][export]") {
    ComparedWindow w;
    REQUIRE(w.window.selectSession(w.b));
    QSignalSpy loaded(&w.window, &MainWindow::sessionShown);
    while (w.window.scalingModel()->rowCount() == 0 && loaded.wait(10'000)) {
    }
    REQUIRE(w.window.scalingModel()->rowCount() == 4);
    w.window.showTab(QStringLiteral("scalingTab"));
    const QString path = w.dir.filePath("scaling.csv");
    REQUIRE(w.window.exportCurrentTab(path));
    const auto [header, first] = firstCsvLine(fileText(path));
    INFO(fileText(path).toStdString());
    CHECK(header.mid(0, 5) == QStringList{"session", "workload", "dataset", "series", "ranks"});
    CHECK(header.contains("samples_per_s"));
    CHECK(header.contains("samples_per_s_two_sigma"));
    CHECK(header.contains("repeats"));
    CHECK(field(header, first, "session") == QStringLiteral("%1 tuesday").arg(w.b));
    CHECK(field(header, first, "workload") == "resnet20");
    CHECK(field(header, first, "repeats") == "1");
    CHECK(field(header, first, "samples_per_s_two_sigma").isEmpty());
    bool number = false;
    field(header, first, "samples_per_s").toDouble(&number);
    CHECK(number);
}

TEST_CASE("the Breakdown and Collectives CSVs hold plain numbers under column names with their units",
          "[ui][export]") {
    BreakdownModel breakdown;
    breakdown.setResults(quickstartRuns(2, 1));
    const auto [header, first] = firstCsvLine(modelCsv(breakdown, {{"session", "3 quickstart"}}));
    CHECK(header.mid(0, 4) == QStringList{"session", "ranks", "data_ms", "forward_ms"});
    CHECK(header.contains("step_ms"));
    CHECK(header.contains("communication_share_percent"));
    CHECK(field(header, first, "session") == "3 quickstart");
    CHECK(field(header, first, "step_ms").toDouble() == Approx(150).epsilon(0.05));

    CollectivesModel collectives;
    CollectiveRecord c;
    c.tool = "nccl-tests";
    c.backend = "nccl";
    c.collective = "allreduce";
    c.dtype = "float32";
    c.op = "sum";
    c.ranks = 8;
    c.bytes = 4096;
    c.time_s = 25e-6;
    c.algbw_gbps = 0.164;
    c.busbw_gbps = 0.287;
    c.checked = false; // nccl-tests -c 0
    collectives.setRecords({c});
    const auto [names, line] = firstCsvLine(modelCsv(collectives));
    CHECK(names == QStringList{"tool", "backend", "collective", "dtype", "op", "in_place", "ranks", "bytes",
                               "time_s", "algbw_gbps", "busbw_gbps", "correct"});
    CHECK(field(names, line, "bytes") == "4096"); // not "4 KiB"
    CHECK(field(names, line, "time_s").toDouble() == Approx(25e-6));
    CHECK(field(names, line, "correct").isEmpty()); // not checked: no answer, not "not checked"
}

TEST_CASE("the Live tab's CSV holds each run's progress as plain numbers, empty where there is no figure yet",
          "[ui][export]") {
    // It held the table's text: "3 / 40", "1 min 5 s", "-" for a throughput not measured yet.
    const std::vector<RunSpec> specs = expandPlan(
        parsePlanText("name = \"live\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"fashion-mnist\"\n"
                      "ranks = [1, 2]\nsteps = 40\n",
                      "live.toml"));
    RunProgressModel runs;
    runs.startSession(1, specs);
    runs.runSubmitted(7, specs.front().name, "123", "/runs/run-1");
    std::vector<MetricRecord> steps;
    for (int i = 1; i <= 3; ++i) {
        StepRecord s;
        s.step = i;
        s.loss = 2.0 / i;
        s.samples_per_s = 100;
        s.step_s = 1.28;
        steps.push_back(s);
    }
    runs.appendRecords(7, steps);
    const QString csv = modelCsv(runs, {{"session", "1 live"}});
    const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 3);
    const QStringList names = lines[0].split(QLatin1Char(','));
    CHECK(names == QStringList{"session", "run", "ranks", "state", "where", "progress_fraction", "eta_s",
                               "samples_per_s_median", "loss"});
    const QStringList running = lines[1].split(QLatin1Char(','));
    CHECK(field(names, running, "progress_fraction").toDouble() == Approx(3.0 / 40));
    CHECK(field(names, running, "eta_s").toDouble() == Approx(37 * 1.28).epsilon(0.01));
    CHECK(field(names, running, "samples_per_s_median").toDouble() == Approx(100));
    CHECK(field(names, running, "loss").toDouble() == Approx(2.0 / 3));
    const QStringList pending = lines[2].split(QLatin1Char(','));
    CHECK(field(names, pending, "state") == "pending");
    CHECK(field(names, pending, "progress_fraction") == "0");
    for (const char* none : {"eta_s", "samples_per_s_median", "loss"}) {
        INFO(none);
        CHECK(field(names, pending, none).isEmpty()); // no figure yet: no "-", no 0
    }
}

TEST_CASE("the Runs tab exports its tables whole, every run, as PNG and SVG", "[ui][export]") {
    ComparedWindow w;
    REQUIRE(w.window.selectSession(w.b));
    QSignalSpy loaded(&w.window, &MainWindow::sessionShown);
    while (w.window.shownRuns()->rowCount() < 4 && loaded.wait(10'000)) {
    }
    w.window.showTab(QStringLiteral("runsTab"));
    const QString path = w.dir.filePath("runs.svg");
    REQUIRE(w.window.exportCurrentTab(path));
    const QString svg = fileText(path);
    for (int ranks : {1, 2, 4, 8})
        CHECK(svg.contains(QStringLiteral("resnet20-fashion-mnist-n%1-r1").arg(ranks)));
    CHECK(svg.contains(QStringLiteral("%1 tuesday").arg(w.b)));
    REQUIRE(w.window.exportCurrentTab(w.dir.filePath("runs.png")));
    CHECK_FALSE(QImage(w.dir.filePath("runs.png")).isNull());
}

TEST_CASE("Compare keeps a long series' settings to a column elided in the middle, the whole in its tooltip",
          "[ui][compare]") {
    // "backend=mpi batch-per-rank=64 bucket-mb=0.25 ..." took the table's whole width.
    ComparisonView view;
    auto* table = view.findChild<QTableView*>("comparisonFigures");
    REQUIRE(table);
    CHECK(table->textElideMode() == Qt::ElideMiddle);
    CHECK(table->horizontalHeader()->sectionResizeMode(ComparisonModel::Series) == QHeaderView::Interactive);
    CHECK(table->columnWidth(ComparisonModel::Series) <= 240);

    std::vector<FigureComparison> rows = compareFigures(quickstartRuns(2, 1), quickstartRuns(2, 7));
    REQUIRE_FALSE(rows.empty());
    const std::string long_settings = "backend=mpi batch-per-rank=64 bucket-mb=0.25 collectives=allreduce "
                                      "device=auto eval-every=20 eval-samples=2000 overlap=true";
    rows.front().settings = long_settings;
    ComparisonModel model;
    model.setComparison(rows, "A", "B");
    CHECK(model.index(0, ComparisonModel::Series).data(Qt::ToolTipRole).toString().toStdString() ==
          long_settings);
}

namespace {

// The performance model's recorded session stored twice (its sweeps' series carry long settings), the window
// at 1280x800 comparing the two in its Compare tab.
struct RecordedPairCompared {
    QTemporaryDir dir;
    SessionStore store{dir.filePath("sessions.sqlite").toStdString()};
    std::int64_t a = storeProjectionFixture(store), b = storeProjectionFixture(store);
    MainWindow window{store};
    RecordedPairCompared() {
        window.resize(1280, 800);
        QSignalSpy compared(window.storedSessions(), &StoredSessionLoader::sessionsCompared);
        while (window.comparisonView()->figuresModel()->rowCount() == 0 && compared.wait(10'000)) {
        }
        REQUIRE(window.compareSessions(a, b));
        window.showTab(QStringLiteral("compareTab"));
    }
};

} // namespace

TEST_CASE("at 1280x800 Compare shows every figure's A, B and change without scrolling sideways, and the "
          "session list every column",
          "[ui][compare][fit]") {
    // A, B and the change stood right of the view, behind a horizontal scroll bar, and
    // the session list's Cluster column was cut to "Cl".
    RecordedPairCompared pair;
    MainWindow& window = pair.window;
    window.show();
    QCoreApplication::processEvents();
    for (const char* name : {"comparisonFigures", "sessionTable"}) {
        auto* table = window.findChild<QTableView*>(QString::fromLatin1(name));
        REQUIRE(table);
        QStringList widths;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            if (!table->isColumnHidden(c))
                widths << QStringLiteral("%1=%2")
                              .arg(table->model()->headerData(c, Qt::Horizontal).toString())
                              .arg(table->columnWidth(c));
        INFO(name << ": viewport " << table->viewport()->width() << ", columns "
                  << widths.join(", ").toStdString());
        CHECK(table->horizontalScrollBar()->maximum() == 0);
    }
    // A figure's name wraps within its cell, never cut: each row is as tall as its figure's wrapped text.
    auto* figures = window.findChild<QTableView*>(QStringLiteral("comparisonFigures"));
    const int width = figures->columnWidth(ComparisonModel::Figure) - 8; // the cell's margins
    for (int row = 0; row < figures->model()->rowCount(); ++row) {
        const QString figure = figures->model()->index(row, ComparisonModel::Figure).data().toString();
        const QRect needed =
            figures->fontMetrics().boundingRect(QRect(0, 0, width, 10'000), Qt::TextWordWrap, figure);
        INFO(figure.toStdString() << ": needs " << needed.width() << " x " << needed.height() << ", row "
                                  << figures->rowHeight(row));
        CHECK(needed.height() <= figures->rowHeight(row));
        // The series stays on one line, elided: no row is taller than a figure's name needs.
        CHECK(figures->rowHeight(row) <= needed.height() + 2 * figures->fontMetrics().height());
    }
}

TEST_CASE("at 1280x800 with the sessions list open, the Plan and Clusters tabs need no sideways scrolling",
          "[ui][fit]") {
    // The Plan tab's Launch button and the Clusters tab's Slurm settings stood right of
    // the view (their pages needed 1085 and 930 pixels of about 820).
    QTemporaryDir dir;
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    storeProjectionFixture(store);
    MainWindow window(store);
    window.resize(1280, 800);
    window.show();
    for (const char* tab : {"planTab", "clustersTab"}) {
        INFO(tab);
        window.showTab(QString::fromLatin1(tab));
        QCoreApplication::processEvents();
        auto* page = window.findChild<QWidget*>(QString::fromLatin1(tab));
        REQUIRE(page);
        QScrollArea* area = nullptr;
        for (QWidget* w = page->parentWidget(); w && !area; w = w->parentWidget())
            area = qobject_cast<QScrollArea*>(w);
        REQUIRE(area);
        INFO("page needs " << page->minimumSizeHint().width() << ", the view has "
                           << area->viewport()->width());
        CHECK(area->horizontalScrollBar()->maximum() == 0);
    }
}

TEST_CASE("Compare's PNG stays a report's width when a series' settings run long: long cells wrap, whole",
          "[ui][export]") {
    // In exported images: the settings of the sweeps' series, unbroken, made the PNG
    // 10,707 pixels wide.
    RecordedPairCompared pair;
    MainWindow& window = pair.window;
    const QString png_path = pair.dir.filePath("compare.png");
    REQUIRE(window.exportCurrentTab(png_path));
    const QImage png(png_path);
    REQUIRE_FALSE(png.isNull());
    CHECK(png.width() <= 1600 + 2 * 12); // the page and its margins
    const QString svg_path = pair.dir.filePath("compare.svg");
    REQUIRE(window.exportCurrentTab(svg_path));
    const QString svg = fileText(svg_path);
    // Each word of the longest series is drawn, wrapped (maybe at a hyphen), not cut.
    const ComparisonModel* figures = window.comparisonView()->figuresModel();
    QString longest;
    for (int row = 0; row < figures->rowCount(); ++row) {
        const QString series = figures->index(row, ComparisonModel::Series).data(Qt::ToolTipRole).toString();
        if (series.size() > longest.size()) longest = series;
    }
    REQUIRE(longest.size() > 150);
    for (const QString& word :
         longest.split(QRegularExpression(QStringLiteral("[ -]")), Qt::SkipEmptyParts)) {
        INFO(word.toStdString());
        CHECK(svg.contains(word.toHtmlEscaped()));
    }
}
