// The first start that leads, through the window offscreen over a real store: an empty store's
// Runs tab shows what to do (the shipped quickstart run here at once, a plan opened and launched, a cluster
// added, logs imported) and the quickstart is one click to a first session; the Runs tab's actions are
// enabled only where something they apply to is selected; cancelling a whole session (Cancel session, Ctrl+.)
// asks once and cancels only on yes.
//
// The runs are real local runs (mpirun through the SessionController) of stand-in engines: one writes a
// recorded engine run's metric stream at once and exits (scalebench-metric-replay), one sleeps until it is
// cancelled.
#include "import_dialog.h"
#include "main_window.h"
#include "projection_fixture.h"
#include "run_progress_model.h"
#include "session_controller.h"
#include "session_store.h"
#include "temporary_folder.h"
#include "widget_testing.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>

using namespace scalebench;

namespace {

const char* const kTwoRuns = "name = \"two\"\n[[run]]\nworkload = \"logistic-regression\"\n"
                             "dataset = \"synthetic-epsilon\"\nranks = [1, 2]\nsteps = 5\n";

enum class StandIn {
    Replaying, // writes a recorded run's stream at once and exits: a run done in a second
    Sleeping,  // writes nothing and sleeps until it is cancelled
};

std::string standInEngine(const TemporaryFolder& folder, StandIn kind) {
    const auto path = folder.path / "stand-in-engine";
    std::ofstream(path) << (kind == StandIn::Replaying ? "#!/bin/sh\nexec " SCALEBENCH_REPLAY_PATH
                                                         " --recordings " SCALEBENCH_SOURCE_DIR
                                                         "/tests/data/recorded \"$@\"\n"
                                                       : "#!/bin/sh\nexec sleep 120\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
}

ConsoleOptions optionsIn(const TemporaryFolder& folder, StandIn engine) {
    ConsoleOptions options;
    options.db = folder.path / "sessions.db";
    options.out_dir = folder.path / "runs";
    options.engine = standInEngine(folder, engine);
    options.poll_ms = 50;
    return options;
}

// The window over a new store in a folder of its own, with its controller running plans on this machine.
struct WindowOnNewStore {
    explicit WindowOnNewStore(StandIn engine) : options(optionsIn(folder, engine)) {}
    TemporaryFolder folder;
    ConsoleOptions options;
    SessionStore store{options.db};
    SessionController controller{options};
    MainWindow window{store, &controller};
};

template <typename Done> bool waitUntil(Done done, int ms = 30'000) {
    return QTest::qWaitFor(done, ms);
}

// Does `act`, which opens a modal dialog, and closes that dialog (Cancel) as soon as it shows, after
// `look` has seen it; false when none showed. A person's look at a dialog before dismissing it.
bool dismissDialog(const std::function<void()>& act, const std::function<void(QDialog&)>& look) {
    bool seen = false;
    QTimer watch;
    watch.setInterval(50);
    QObject::connect(&watch, &QTimer::timeout, [&] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
            look(*dialog);
            seen = true;
            dialog->reject();
        }
    });
    watch.start();
    act(); // returns when the dialog has closed (at once when none opens)
    return seen;
}

QString runState(RunProgressModel* runs, int row) {
    return runs->index(row, RunProgressModel::State).data().toString();
}

} // namespace

TEST_CASE(
    "an empty store's Runs tab shows what to do, its quickstart button runs the shipped quickstart plan "
    "here in one click, and the panel is gone once a session exists",
    "[ui][first-start]") {
    WindowOnNewStore console(StandIn::Replaying);
    MainWindow& window = console.window;
    window.resize(1280, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    auto* tabs = child<QTabWidget>(window, "tabs");
    auto* panel = child<QWidget>(window, "firstStart");
    auto* progress = child<QTableView>(window, "progressTable");
    REQUIRE(waitUntil([&] { return panel->isVisible(); })); // the session list arrived: none
    CHECK(tabs->currentWidget()->objectName() == "runsTab");
    CHECK_FALSE(progress->isVisible());

    // Four actions, each a button that says what it does, all usable.
    auto* quickstart = child<QPushButton>(window, "firstStartQuickstart");
    auto* open_plan = child<QPushButton>(window, "firstStartOpenPlan");
    auto* add_cluster = child<QPushButton>(window, "firstStartAddCluster");
    auto* import_logs = child<QPushButton>(window, "firstStartImportLogs");
    CHECK(quickstart->text() == "Run the quickstart on this machine");
    CHECK(open_plan->text() == "Open and launch a plan...");
    CHECK(add_cluster->text() == "Add a cluster...");
    CHECK(import_logs->text() == "Import logs...");
    for (QPushButton* action : {quickstart, open_plan, add_cluster, import_logs}) {
        INFO(action->objectName().toStdString());
        CHECK(action->isVisible());
        CHECK(action->isEnabled());
    }

    // Add a cluster: the Clusters tab, its form ready for a new cluster.
    click(add_cluster);
    CHECK(tabs->currentWidget()->property("tabName").toString() == "clustersTab");
    CHECK(child<QLineEdit>(window, "clusterName")->text() == "new-cluster");
    clickTab(*tabs, QStringLiteral("runsTab"));

    // Import logs: File > Import logs' dialog.
    QString dialog_class;
    CHECK(
        dismissDialog([&] { click(import_logs); },
                      [&](QDialog& d) { dialog_class = QString::fromLatin1(d.metaObject()->className()); }));
    CHECK(dialog_class == "scalebench::ImportDialog");

    // Open and launch a plan: File > Open and launch plan's file dialog, among the plans scalebench ships.
    QString folder;
    CHECK(dismissDialog([&] { click(open_plan); },
                        [&](QDialog& d) {
                            if (auto* files = qobject_cast<QFileDialog*>(&d))
                                folder = files->directory().canonicalPath();
                        }));
    CHECK(folder == QDir(QStringLiteral(SCALEBENCH_SOURCE_DIR "/resources/plans")).canonicalPath());
    CHECK_FALSE(console.controller.busy());
    CHECK(panel->isVisible());

    // The quickstart: no question (its button says where it runs), a session of the shipped plan on this
    // machine, every run done; then the Runs tab shows that session's runs instead of the panel.
    std::vector<QString> asked;
    window.setLaunchQuestion([&](const QString& question) {
        asked.push_back(question);
        return false;
    });
    QSignalSpy finished(&console.controller, &SessionController::sessionFinished);
    click(quickstart);
    CHECK(asked.empty());
    REQUIRE(console.controller.busy());
    REQUIRE(finished.wait(120'000));
    const std::int64_t session = finished.takeFirst().at(0).toLongLong();
    const auto stored = console.store.session(session);
    REQUIRE(stored);
    CHECK(stored->name == "quickstart");
    CHECK(stored->cluster == "local");
    CHECK(storedWord(stored->status) == "ok");
    const std::size_t planned =
        expandPlan(parsePlanFile(SCALEBENCH_SOURCE_DIR "/resources/plans/quickstart.toml")).size();
    const auto runs = console.store.runs(session);
    CHECK(runs.size() == planned);
    for (const auto& run : runs) {
        INFO(run.name << ": " << run.error);
        CHECK(storedWord(run.status) == "ok");
    }
    REQUIRE(waitUntil([&] { return !panel->isVisible(); }));
    CHECK(progress->isVisible());
    CHECK(tabs->currentWidget()->objectName() == "runsTab");
    REQUIRE(waitUntil([&] { return progress->model()->rowCount() == static_cast<int>(planned); }));
}

TEST_CASE("Cancel run, Cancel session, Resubmit and Open log are disabled until something they apply to is "
          "selected",
          "[ui][actions]") {
    WindowOnNewStore console(StandIn::Sleeping);
    MainWindow& window = console.window;
    const std::int64_t earlier = storeProjectionFixture(console.store);
    window.show();
    window.reload();
    auto* progress = child<QTableView>(window, "progressTable");
    REQUIRE(
        waitUntil([&] { return window.shownSessionId() == earlier && progress->model()->rowCount() > 0; }));
    auto* cancel_run = child<QPushButton>(window, "cancelRun");
    auto* cancel_session = child<QPushButton>(window, "cancelSession");
    auto* resubmit = child<QPushButton>(window, "resubmit");
    auto* open_log = child<QPushButton>(window, "openLog");
    const auto enabled = [&] {
        return std::vector<bool>{cancel_run->isEnabled(), cancel_session->isEnabled(), resubmit->isEnabled(),
                                 open_log->isEnabled()};
    };
    using Enabled = std::vector<bool>; // cancel run, cancel session, resubmit, open log

    // A stored session that ended, no run selected: nothing to act on.
    CHECK(enabled() == Enabled{false, false, false, false});
    // One of its runs selected: it can be resubmitted and its log read, not cancelled (it ended).
    clickRow(*progress, 0, RunProgressModel::State);
    CHECK(enabled() == Enabled{false, false, true, true});

    // The running session shown: it can be cancelled; its run selected: that run too.
    QSignalSpy finished(&console.controller, &SessionController::sessionFinished);
    REQUIRE(window.launchPlan(parsePlanText(kTwoRuns, "two.toml"), QStringLiteral("local")));
    REQUIRE(waitUntil(
        [&] { return window.shownRuns() == window.liveRuns() && window.liveRuns()->isActive(0); }, 60'000));
    CHECK(enabled() == Enabled{false, true, false, false});
    clickRow(*progress, 0, RunProgressModel::State);
    CHECK(enabled() == Enabled{true, true, true, true});
    // The second run, not started yet, cannot be cancelled alone.
    clickRow(*progress, 1, RunProgressModel::State);
    CHECK(enabled() == Enabled{false, true, true, true});

    // Cancelled: nothing of it runs any more.
    window.setCancelQuestion([](const QString&) { return true; });
    click(cancel_session);
    REQUIRE(finished.wait(60'000));
    REQUIRE(waitUntil([&] { return !cancel_session->isEnabled(); }));
    CHECK_FALSE(cancel_run->isEnabled());
}

TEST_CASE("Ctrl+. asks once before cancelling the running session, naming it and its runs left: No cancels "
          "nothing, Yes cancels it",
          "[ui][cancel]") {
    WindowOnNewStore console(StandIn::Sleeping);
    MainWindow& window = console.window;
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    std::vector<QString> asked;
    bool answer = false;
    window.setCancelQuestion([&](const QString& question) {
        asked.push_back(question);
        return answer;
    });
    QSignalSpy finished(&console.controller, &SessionController::sessionFinished);
    REQUIRE(window.launchPlan(parsePlanText(kTwoRuns, "two.toml"), QStringLiteral("local")));
    RunProgressModel* live = window.liveRuns();
    REQUIRE(waitUntil([&] { return window.shownRuns() == live && runState(live, 0) == "running"; }, 60'000));
    const std::int64_t session = live->sessionId();

    QApplication::setActiveWindow(&window);
    QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier);
    REQUIRE(asked.size() == 1);
    CHECK(asked.front().toStdString() ==
          QStringLiteral(
              "Cancel session %1 (two)? 1 run running and 1 run pending will be stopped; the runs that "
              "ended keep their records.")
              .arg(session)
              .toStdString());
    // No: the session goes on (the controller polls every 50 ms: a cancel would show within this wait).
    QTest::qWait(500);
    CHECK(console.controller.busy());
    CHECK(finished.isEmpty());
    CHECK(runState(live, 0) == "running");
    CHECK(storedWord(console.store.session(session)->status) == "running");
    CHECK_THAT(child<QLabel>(window, "statusText")->text().toStdString(), Catch::Contains("not cancelled"));

    // Yes: cancelled, the question asked once more (once per Ctrl+.).
    answer = true;
    QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier);
    CHECK(asked.size() == 2);
    REQUIRE(finished.wait(60'000));
    CHECK(finished.takeFirst().at(0).toLongLong() == session);
    CHECK(storedWord(console.store.session(session)->status) == "cancelled");
}
