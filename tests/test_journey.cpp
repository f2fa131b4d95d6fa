// The journey of issue 25 through the window, offscreen: cancelling a session gives `cancelled` (finding 5);
// Open log shows one window with stdout and stderr as tabs, says when a log is empty, and finds the run
// folders that older sessions stored relative (finding 7); Launch names where it launches, and the Job
// scripts preview's cluster does not change it; File > Open and launch plan asks once (finding 8).
//
// The runs here are real local runs (mpirun through the SessionController) of a stand-in engine that only
// sleeps until it is cancelled: what is tested is the console, and it needs no LibTorch build.
#include "main_window.h"
#include "plan_builder_widget.h"
#include "run_progress_model.h"
#include "runs_tab.h"
#include "session_controller.h"
#include "session_list_model.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"
#include "widget_testing.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <catch2/catch.hpp>
#include <fstream>

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
          "[ui][cancel][issue25]") {
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
    SECTION("the session cancelled with Cancel session") {
        QTest::mouseClick(child<QPushButton>(window, "cancelSession"), Qt::LeftButton);
    }
    REQUIRE(finished.wait(60'000));
    const std::int64_t session = finished.takeFirst().at(0).toLongLong();
    REQUIRE(console.store.session(session));
    CHECK(console.store.session(session)->status == "cancelled");
    CHECK(console.store.runs(session).at(0).status == "cancelled");
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
          "[ui][logs][issue25]") {
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
          "[ui][logs][issue25]") {
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
    "[ui][plan][issue25]") {
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
          "[ui][plan][issue25]") {
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
