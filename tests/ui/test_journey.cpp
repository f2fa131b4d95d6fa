// A newcomer's journey through the window, offscreen. First the whole journey as a person makes it, by
// mouse clicks and key presses on the real main window (a stored session looked at, a plan built and
// launched, watched, cancelled, resubmitted, a log opened, two sessions compared, the comparison exported, a
// cluster added), asserting what is on screen at each step. Then its findings one by one: cancelling a
// session gives `cancelled` (finding 5); Open log shows one window with stdout and stderr as tabs, says when
// a log is empty, and finds the run folders that older sessions stored relative (finding 7); Launch names
// where it launches, and the Job scripts preview's cluster does not change it; File > Open and launch plan
// asks once (finding 8).
//
// The runs here are real local runs (mpirun through the SessionController) of stand-in engines that replay a
// recorded stream or only sleep until they are cancelled: what is tested is the console, and it needs no
// LibTorch build.
#include "clusters_widget.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "file_text.h"
#include "live_view.h"
#include "main_window.h"
#include "plan_builder_widget.h"
#include "projection_fixture.h"
#include "run_progress_model.h"
#include "runs_tab.h"
#include "session_controller.h"
#include "session_list_model.h"
#include "session_store.h"
#include "settings_diff_model.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"
#include "widget_testing.h"

#include <QApplication>
#include <QComboBox>
#include <QDate>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>

using namespace scalebench;

namespace {

const char* const kOneRun = "name = \"journey\"\n[[run]]\nworkload = \"logistic-regression\"\n"
                            "dataset = \"synthetic-epsilon\"\nranks = 1\nsteps = 5\n";

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

// A stand-in for scalebench-engine: it writes nothing and sleeps until it is cancelled.
std::string sleepingEngine(const TemporaryFolder& folder) {
    const auto path = folder.path / "sleeping-engine";
    writeFile(path, "#!/bin/sh\nexec sleep 120\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

ConsoleOptions optionsIn(const TemporaryFolder& folder) {
    ConsoleOptions options;
    options.db = folder.path / "sessions.db";
    options.out_dir = folder.path / "runs";
    options.engine = sleepingEngine(folder);
    options.poll_ms = 50;
    return options;
}

struct WindowOnNewStore {
    TemporaryFolder folder;
    ConsoleOptions options = optionsIn(folder);
    SessionStore store{options.db};
    SessionController controller{options};
    MainWindow window{store, &controller};
};

QString statusText(MainWindow& window) {
    return child<QLabel>(window, "statusText")->text();
}

// The visible dialogs named `name` (Open log's windows).
std::vector<QDialog*> shownDialogs(const char* name) {
    std::vector<QDialog*> shown;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<QDialog*>(w);
            d && d->isVisible() && d->objectName() == QLatin1String(name))
            shown.push_back(d);
    return shown;
}

void closeDialogs(const char* name) {
    for (QDialog* d : shownDialogs(name))
        d->close();
    QCoreApplication::processEvents();
}

// The text of the tab titled `title` in Open log's window.
QString tabText(QDialog* dialog, const QString& title) {
    auto* tabs = dialog->findChild<QTabWidget*>(QStringLiteral("logTabs"));
    REQUIRE(tabs);
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) {
            auto* view = qobject_cast<QPlainTextEdit*>(tabs->widget(i));
            REQUIRE(view);
            return view->toPlainText();
        }
    FAIL("no tab " << title.toStdString());
    return {};
}

// Waits until Open log's window has read both files.
void waitForLogs(SessionController& controller) {
    QSignalSpy read(&controller, &SessionController::textFetched);
    while (read.count() < 2)
        REQUIRE(read.wait(30'000));
    QCoreApplication::processEvents();
}

} // namespace

TEST_CASE("cancelling a session from the window stores it as cancelled, and the window says cancelled, not "
          "failed",
          "[ui][cancel]") {
    WindowOnNewStore console;
    MainWindow& window = console.window;
    window.show();
    QSignalSpy submitted(&console.controller, &SessionController::runSubmitted);
    QSignalSpy finished(&console.controller, &SessionController::sessionFinished);
    REQUIRE(window.launchPlan(parsePlanText(kOneRun, "journey.toml"), QStringLiteral("local")));
    REQUIRE(submitted.wait(60'000));
    // As a person waits to see the run in the Runs tab: the window lists the new session, then shows its
    // runs.
    for (int waited = 0; window.shownRuns() != window.liveRuns() && waited < 10'000; waited += 20)
        QTest::qWait(20);
    REQUIRE(window.shownRuns() == window.liveRuns());
    REQUIRE(window.liveRuns()->isActive(0));
    auto* progress = child<QTableView>(window, "progressTable");
    SECTION("the run cancelled with Cancel run") {
        progress->selectRow(0);
        QTest::mouseClick(child<QPushButton>(window, "cancelRun"), Qt::LeftButton);
    }
    SECTION("the session cancelled with Cancel session, which asks once") {
        std::vector<QString> asked;
        window.setCancelQuestion([&](const QString& question) {
            asked.push_back(question);
            return true;
        });
        QTest::mouseClick(child<QPushButton>(window, "cancelSession"), Qt::LeftButton);
        REQUIRE(asked.size() == 1);
        CHECK_THAT(asked.front().toStdString(), Catch::StartsWith("Cancel session ") &&
                                                    Catch::Contains("(journey)") && Catch::Contains("1 run"));
    }
    REQUIRE(finished.wait(60'000));
    const std::int64_t session = finished.takeFirst().at(0).toLongLong();
    REQUIRE(console.store.session(session));
    CHECK(storedWord(console.store.session(session)->status) == "cancelled");
    CHECK(storedWord(console.store.runs(session).at(0).status) == "cancelled");
    const std::string said = statusText(window).toStdString();
    CHECK_THAT(said, Catch::Contains("cancelled") && !Catch::Contains("failed"));
    // The session list says so, not in red.
    auto* sessions = child<QTableView>(window, "sessionTable");
    QSignalSpy listed(window.storedSessions(), &StoredSessionLoader::sessionsListed);
    while (sessions->model()->rowCount() == 0 ||
           sessions->model()->index(0, SessionListModel::Status).data().toString() == "running")
        REQUIRE(listed.wait(10'000));
    const QModelIndex status = sessions->model()->index(0, SessionListModel::Status);
    CHECK(status.data().toString() == "cancelled");
    CHECK(status.data(Qt::ForegroundRole).value<QColor>() != QColor(Qt::red));
}

TEST_CASE("Open log shows one window with stdout and stderr as tabs, and says when a log is empty",
          "[ui][logs]") {
    const TemporaryFolder folder;
    ConsoleOptions options = optionsIn(folder);
    SessionController controller(options);
    const auto run_dir = folder.path / "runs" / "session-1" / "run-1";
    writeFile(run_dir / "stdout.log", "");
    writeFile(run_dir / "stderr.log", "rank 0: something went wrong\n");
    const std::vector<RunSpec> specs = expandPlan(parsePlanText(kOneRun, "journey.toml"));
    RunProgressModel runs;
    runs.startSession(1, specs);
    runs.runSubmitted(7, specs.front().name, "123", run_dir.string());
    RunsTab tab(&controller, &runs);
    SessionRow session;
    session.id = 1;
    session.cluster = "local";
    tab.setSession(session);
    child<QTableView>(tab, "progressTable")->selectRow(0);
    QTest::mouseClick(child<QPushButton>(tab, "openLog"), Qt::LeftButton);
    waitForLogs(controller);

    const auto dialogs = shownDialogs("logDialog");
    REQUIRE(dialogs.size() == 1); // one window, not one per file
    CHECK(tabText(dialogs.front(), "stdout.log") == "(empty: the run wrote nothing to stdout.log)");
    CHECK(tabText(dialogs.front(), "stderr.log") == "rank 0: something went wrong\n");
    CHECK_THAT(dialogs.front()->windowTitle().toStdString(), Catch::Contains(run_dir.string()));
    closeDialogs("logDialog");
}

TEST_CASE("Open log finds the run folder an older session stored relative, beside its store, and names the "
          "paths it tried when it cannot",
          "[ui][logs]") {
    // `make quickstart` stored out/quickstart/session-1/... with the store in out/scalebench.db; the window
    // now runs from another folder.
    const TemporaryFolder folder;
    ConsoleOptions options = optionsIn(folder);
    options.db = folder.path / "out" / "scalebench.db";
    SessionController controller(options);
    const std::string relative = "out/quickstart/session-1/run-1";
    writeFile(folder.path / relative / "stdout.log", "step 1\n");
    writeFile(folder.path / relative / "stderr.log", "");
    const std::vector<RunSpec> specs = expandPlan(parsePlanText(kOneRun, "journey.toml"));
    RunProgressModel runs;
    runs.startSession(1, specs);
    RunsTab tab(&controller, &runs);
    SessionRow session;
    session.id = 1;
    session.cluster = "local";
    tab.setSession(session);

    SECTION("found beside the store") {
        runs.runSubmitted(7, specs.front().name, "123", relative);
        child<QTableView>(tab, "progressTable")->selectRow(0);
        QTest::mouseClick(child<QPushButton>(tab, "openLog"), Qt::LeftButton);
        waitForLogs(controller);
        const auto dialogs = shownDialogs("logDialog");
        REQUIRE(dialogs.size() == 1);
        CHECK(tabText(dialogs.front(), "stdout.log") == "step 1\n");
        CHECK(tabText(dialogs.front(), "stderr.log") == "(empty: the run wrote nothing to stderr.log)");
    }
    SECTION("found nowhere: the message names each path tried") {
        runs.runSubmitted(7, specs.front().name, "123", "out/elsewhere/run-1");
        child<QTableView>(tab, "progressTable")->selectRow(0);
        QTest::mouseClick(child<QPushButton>(tab, "openLog"), Qt::LeftButton);
        QCoreApplication::processEvents(); // nothing to read: the window says so at once
        const auto dialogs = shownDialogs("logDialog");
        REQUIRE(dialogs.size() == 1);
        const std::string said = tabText(dialogs.front(), "stdout.log").toStdString();
        INFO(said);
        CHECK_THAT(said, Catch::Contains("cannot read out/elsewhere/run-1/stdout.log") &&
                             Catch::Contains((folder.path / "out/out/elsewhere/run-1/stdout.log").string()) &&
                             Catch::Contains((folder.path / "out/elsewhere/run-1/stdout.log").string()));
    }
    closeDialogs("logDialog");
}

TEST_CASE(
    "the Launch button names where it launches, and the Job scripts preview's cluster does not change it",
    "[ui][plan]") {
    PlanBuilderWidget builder;
    ClusterSettings prod;
    prod.name = "prod";
    prod.host = "head";
    prod.remote_root = "/home/me/sb";
    builder.setClusters({prod});
    auto* launch = child<QPushButton>(builder, "launch");
    auto* target = child<QComboBox>(builder, "launchTarget");
    QSignalSpy launched(&builder, &PlanBuilderWidget::launchRequested);
    CHECK(launch->text() == "Launch on this machine");

    // Looking at prod's job script leaves the launch where it was.
    child<QComboBox>(builder, "previewCluster")->setCurrentText("prod");
    CHECK(launch->text() == "Launch on this machine");
    QTest::mouseClick(launch, Qt::LeftButton);
    REQUIRE(launched.count() == 1);
    CHECK(launched.takeFirst().at(1).toString() == "local");

    // Launching on prod is chosen beside the button.
    target->setCurrentIndex(target->findData(QStringLiteral("prod")));
    CHECK(launch->text() == "Launch on prod");
    CHECK(builder.launchTarget() == "prod");
    child<QComboBox>(builder, "previewCluster")->setCurrentText("local");
    QTest::mouseClick(launch, Qt::LeftButton);
    REQUIRE(launched.count() == 1);
    CHECK(launched.takeFirst().at(1).toString() == "prod");
}

TEST_CASE("File > Open and launch plan asks once where it launches, and launches only when told yes",
          "[ui][plan]") {
    WindowOnNewStore console;
    MainWindow& window = console.window;
    const auto plan_file = console.folder.path / "two.toml";
    writeFile(plan_file, "name = \"two\"\n[[run]]\nworkload = \"logistic-regression\"\n"
                         "dataset = \"synthetic-epsilon\"\nranks = [1, 2]\nsteps = 5\n");
    std::vector<QString> asked;
    bool answer = false;
    window.setLaunchQuestion([&](const QString& question) {
        asked.push_back(question);
        return answer;
    });
    CHECK_FALSE(window.openAndLaunchPlan(QString::fromStdString(plan_file.string())));
    REQUIRE(asked.size() == 1);
    CHECK(asked.front() == "Launch two (2 runs) on this machine?");
    CHECK_FALSE(console.controller.busy());

    answer = true;
    QSignalSpy finished(&console.controller, &SessionController::sessionFinished);
    CHECK(window.openAndLaunchPlan(QString::fromStdString(plan_file.string())));
    CHECK(asked.size() == 2);
    CHECK(console.controller.busy());
    console.controller.cancelSession();
    REQUIRE(finished.wait(60'000));
}

namespace {

// A stand-in for scalebench-engine that streams: it says so on stdout, replays a real engine run's recorded
// metric stream into the --metrics file the job names (scalebench-metric-replay, 400 steps at 200 lines a
// second), then sleeps until it is cancelled.
std::string streamingEngine(const TemporaryFolder& folder) {
    const auto path = folder.path / "streaming-engine";
    writeFile(path,
              "#!/bin/sh\necho \"stand-in engine: replaying a recorded run\"\n" SCALEBENCH_REPLAY_PATH
              " --recordings " SCALEBENCH_SOURCE_DIR "/tests/data/recorded --lines-per-second 200 \"$@\"\n"
              "exec sleep 120\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

// The modal save dialog that File > Export opens, answered as a person answers it: the name it suggests
// read (kept in `suggested`), the whole path typed over it, the completer's list closed with Escape when it
// opens, Save clicked until the dialog goes. One step each 50 ms; `answered` says the dialog was seen and
// went. The looking stops with `window`.
void answerSaveDialog(QWidget& window, const QString& path, QString& suggested, bool& answered) {
    auto* look = new QTimer(&window);
    look->setInterval(50);
    auto seen = std::make_shared<bool>(false);
    QObject::connect(look, &QTimer::timeout, [look, seen, path, &suggested, &answered] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            if (*seen) { // it was answered and went
                answered = true;
                look->deleteLater();
            }
            return;
        }
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (!name || !name->isVisible()) return;
        if (!*seen) {
            *seen = true;
            suggested = name->text();
        }
        if (QWidget* completions = QApplication::activePopupWidget()) {
            QTest::keyClick(completions, Qt::Key_Escape);
        } else if (name->text() != path) {
            typeInto(name, path);
        } else if (auto* buttons = dialog->findChild<QDialogButtonBox*>()) {
            QTest::mouseClick(buttons->button(QDialogButtonBox::Save), Qt::LeftButton);
        }
    });
    look->start();
}

// Waits, letting the window work, until `done` holds; false after `ms`.
template <typename Done> bool waitUntil(Done done, int ms = 30'000) {
    return QTest::qWaitFor(done, ms);
}

} // namespace

TEST_CASE("the whole journey through the window by mouse and keyboard: a stored session, a plan launched, "
          "watched, cancelled and resubmitted, a log, a comparison, an export and a new cluster",
          "[ui][journey]") {
    TemporaryFolder folder;
    ConsoleOptions options = optionsIn(folder);
    options.engine = streamingEngine(folder);
    SessionStore store(options.db);
    // Two stored sessions of the same recorded runs (ResNet-20 at 1 and 2 ranks, two repeats, and the MPI
    // sweep): what a researcher has from earlier days.
    const std::int64_t first = storeProjectionFixture(store);
    const std::int64_t second = storeProjectionFixture(store);
    SessionController controller(options);
    MainWindow window(store, &controller);
    window.resize(1280, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    auto* tabs = child<QTabWidget>(window, "tabs");
    auto* sessions = child<QTableView>(window, "sessionTable");
    auto* status = child<QLabel>(window, "statusText");
    REQUIRE(waitUntil([&] { return sessions->model()->rowCount() == 2; }));

    // 1. The search box filters the session list as it is typed into, and shows all again when cleared.
    auto* search = child<QLineEdit>(window, "sessionSearch");
    typeInto(search, "zzzz");
    CHECK(sessions->model()->rowCount() == 0);
    typeInto(search, "projection");
    CHECK(sessions->model()->rowCount() == 2);
    typeInto(search, "");
    REQUIRE(sessions->model()->rowCount() == 2);

    // 2. A stored session, clicked in the list: the Runs tab lists its runs, throughput named by statistic.
    int first_row = -1;
    for (int row = 0; row < sessions->model()->rowCount(); ++row)
        if (sessions->model()->index(row, SessionListModel::Id).data().toLongLong() == first) first_row = row;
    clickRow(*sessions, first_row, SessionListModel::Name);
    clickTab(*tabs, QStringLiteral("runsTab"));
    auto* results = child<QTableView>(window, "runTable");
    REQUIRE(waitUntil([&] { return window.shownSessionId() == first && results->model()->rowCount() == 6; }));
    QStringList headers;
    for (int column = 0; column < results->model()->columnCount(); ++column)
        headers << results->model()->headerData(column, Qt::Horizontal).toString();
    CHECK(headers.join(QLatin1Char('|')).contains(QStringLiteral("(median)")));

    // 3. A plan built in the Plan tab (its first workload, named by typing) and launched with the button that
    // names where it launches.
    clickTab(*tabs, QStringLiteral("planTab"));
    typeInto(child<QLineEdit>(window, "planName"), "journey");
    auto* launch = child<QPushButton>(window, "launch");
    CHECK(launch->text() == "Launch on this machine");
    QSignalSpy submitted(&controller, &SessionController::runSubmitted);
    QSignalSpy finished(&controller, &SessionController::sessionFinished);
    click(launch);
    REQUIRE(controller.busy());
    CHECK(tabs->currentWidget()->objectName() == "runsTab"); // the window goes to the runs it started
    REQUIRE(submitted.wait(60'000));

    // 4. Watched: the run streams into the Runs tab's progress (steps and a throughput) and the Live tab.
    RunProgressModel* live = window.liveRuns();
    REQUIRE(waitUntil([&] { return window.shownRuns() == live && live->trace(0).step.size() >= 20; }));
    CHECK(live->index(0, RunProgressModel::State).data().toString() == "running");
    CHECK(live->index(0, RunProgressModel::SamplesPerS).data(Qt::UserRole).toDouble() > 0);
    clickTab(*tabs, QStringLiteral("liveTab"));
    window.liveView()->refresh();
    CHECK(window.liveView()->drawnPoints(QStringLiteral("loss")) >= 20);

    // 5. Cancelled with Cancel session, Yes answered to its question: the session and its runs say
    // cancelled, not failed.
    int cancel_questions = 0;
    window.setCancelQuestion([&](const QString&) {
        ++cancel_questions;
        return true;
    });
    clickTab(*tabs, QStringLiteral("runsTab"));
    click(child<QPushButton>(window, "cancelSession"));
    CHECK(cancel_questions == 1);
    REQUIRE(finished.wait(60'000));
    const std::int64_t launched = finished.takeFirst().at(0).toLongLong();
    CHECK(storedWord(store.session(launched)->status) == "cancelled");
    CHECK_THAT(status->text().toStdString(), Catch::Contains("cancelled") && !Catch::Contains("failed"));

    // 6. Resubmitted: the first run picked in the progress table and sent again as a new session, which
    // streams, and is cancelled in turn.
    auto* progress = child<QTableView>(window, "progressTable");
    REQUIRE(waitUntil([&] { return progress->model()->rowCount() > 0; }));
    clickRow(*progress, 0, RunProgressModel::State);
    click(child<QPushButton>(window, "resubmit"));
    REQUIRE(controller.busy());
    REQUIRE(submitted.wait(60'000));
    REQUIRE(waitUntil([&] { return window.liveRuns()->trace(0).step.size() >= 1; }));
    REQUIRE(waitUntil([&] { return child<QPushButton>(window, "cancelSession")->isEnabled(); }));
    click(child<QPushButton>(window, "cancelSession"));
    CHECK(cancel_questions == 2);
    REQUIRE(finished.wait(60'000));
    const std::int64_t resubmitted = finished.takeFirst().at(0).toLongLong();
    CHECK(resubmitted != launched);
    CHECK(store.runs(resubmitted).size() == 1);
    CHECK(storedWord(store.session(resubmitted)->status) == "cancelled");

    // 7. Open log on that run: one window, stdout and stderr as tabs, the engine's own line in stdout.
    REQUIRE(waitUntil([&] { return progress->model()->rowCount() == 1; }));
    clickRow(*progress, 0, RunProgressModel::State);
    click(child<QPushButton>(window, "openLog"));
    waitForLogs(controller);
    const auto logs = shownDialogs("logDialog");
    REQUIRE(logs.size() == 1);
    CHECK_THAT(tabText(logs.front(), "stdout.log").toStdString(),
               Catch::Contains("stand-in engine: replaying a recorded run"));
    closeDialogs("logDialog");

    // 8. Compare: the two stored sessions chosen with the keyboard in A and B (newest first in each list).
    // The same recorded runs twice: no figure is called better or worse, and no setting differs.
    clickTab(*tabs, QStringLiteral("compareTab"));
    auto* choose_a = child<QComboBox>(window, "compareA");
    auto* choose_b = child<QComboBox>(window, "compareB");
    QTest::keyClick(choose_a, Qt::Key_End); // the oldest: the first stored session
    QTest::keyClick(choose_b, Qt::Key_End);
    QTest::keyClick(choose_b, Qt::Key_Up); // the second
    ComparisonView* comparison = window.comparisonView();
    REQUIRE(waitUntil([&] {
        return comparison->figuresModel()->rowCount() > 0 &&
               comparison->heading()->text().contains(QStringLiteral("%1").arg(second));
    }));
    CHECK(choose_a->currentData().toLongLong() == first);
    CHECK(choose_b->currentData().toLongLong() == second);
    ComparisonModel* figures = comparison->figuresModel();
    for (int row = 0; row < figures->rowCount(); ++row) {
        const QString judgement = figures->index(row, ComparisonModel::Judgement).data().toString();
        INFO("row " << row << ": "
                    << figures->index(row, ComparisonModel::Figure).data().toString().toStdString() << " "
                    << judgement.toStdString());
        CHECK((judgement == "within noise" || judgement == "cannot tell" || judgement == "same"));
    }
    CHECK(comparison->settingsModel()->rowCount() == 0);

    // 9. Exported with Ctrl+E: the save dialog suggests the sessions, the tab and the date; the CSV written
    // holds plain numbers with units in the headers.
    const QString csv = QString::fromStdString((folder.path / "comparison.csv").string());
    QString suggested;
    bool answered = false;
    answerSaveDialog(window, csv, suggested, answered);
    QApplication::setActiveWindow(&window);
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
    REQUIRE(waitUntil([&] { return answered && QFile::exists(csv); }, 10'000));
    CHECK(suggested.toStdString() == QStringLiteral("session-%1-vs-%2-compare-%3.csv")
                                         .arg(first)
                                         .arg(second)
                                         .arg(QDate::currentDate().toString(Qt::ISODate))
                                         .toStdString());
    const std::string written = fileText(csv.toStdString());
    CHECK_THAT(written,
               Catch::StartsWith("session_a,session_b,workload,dataset,series,ranks,figure,unit,a,b,"));
    // Units stand in their own column: no figure carries one ("152.24 ms", "+10.0%").
    CHECK_FALSE(QString::fromStdString(written).contains(
        QRegularExpression(QStringLiteral("[0-9] ?(ms|%|x)(,|\\n)"))));
    CHECK_THAT(status->text().toStdString(), Catch::Contains("exported"));

    // 10. A cluster added in the Clusters tab: typed into the form, saved, listed, and offered as a place to
    // launch in the Plan tab.
    clickTab(*tabs, QStringLiteral("clustersTab"));
    QSignalSpy changed(window.clustersView(), &ClustersWidget::clustersChanged);
    click(child<QPushButton>(window, "addCluster"));
    typeInto(child<QLineEdit>(window, "clusterName"), "prod");
    typeInto(child<QLineEdit>(window, "host"), "head.example.org");
    typeInto(child<QLineEdit>(window, "remoteRoot"), "/home/me/scalebench");
    click(child<QPushButton>(window, "saveCluster"));
    REQUIRE(changed.wait(10'000));
    REQUIRE(store.cluster("prod"));
    CHECK(store.cluster("prod")->host == "head.example.org");
    auto* clusters = child<QTableView>(window, "clusterTable");
    QStringList listed;
    for (int row = 0; row < clusters->model()->rowCount(); ++row)
        listed << clusters->model()->index(row, 0).data().toString();
    CHECK(listed.contains(QStringLiteral("prod")));
    clickTab(*tabs, QStringLiteral("planTab"));
    auto* target = child<QComboBox>(window, "launchTarget");
    REQUIRE(target->findData(QStringLiteral("prod")) >= 0);
    target->setFocus();
    QTest::keyClick(target, Qt::Key_End);
    CHECK(launch->text() == "Launch on prod");
}
