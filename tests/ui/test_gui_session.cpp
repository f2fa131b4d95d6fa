// The console's window driven end to end, offscreen: a plan launched from the window runs on this machine
// (real mpirun, real engine), its records arrive in the live view's model while it runs, and the finished
// session's runs, figures and scaling fill in. Cancelling keeps what was recorded.
#include "breakdown_model.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "engine_under_test.h"
#include "live_view.h"
#include "main_window.h"
#include "plan_builder_widget.h"
#include "run_progress_model.h"
#include "scaling_model.h"
#include "session_controller.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>
#include <set>

using namespace scalebench;

namespace {

ConsoleOptions optionsIn(const TemporaryFolder& folder) {
    ConsoleOptions options;
    options.db = folder.path / "sessions.db";
    options.out_dir = folder.path / "out";
    options.engine = engineUnderTest();
    options.poll_ms = 100;
    return options;
}

RunPlan tinyPlan(int steps) {
    return parsePlanText(
        "name = \"gui-e2e\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\n"
        "ranks = [1, 2]\nsteps = " +
            std::to_string(steps) + "\nbatch_per_rank = 16\neval_samples = 64\n",
        "gui-e2e.toml");
}

// Moves a combo box to the item of `session` with the arrow keys (each press emits activated, as a user's).
void chooseWithKeys(QComboBox* box, std::int64_t session) {
    REQUIRE(box != nullptr);
    const int wanted = box->findData(QVariant::fromValue<qint64>(session));
    REQUIRE(wanted >= 0);
    box->setFocus();
    for (int presses = 0; box->currentIndex() != wanted && presses < box->count(); ++presses)
        QTest::keyClick(box, box->currentIndex() < wanted ? Qt::Key_Down : Qt::Key_Up);
    REQUIRE(box->currentIndex() == wanted);
}

// The window over a new store in a folder of its own, with its controller running plans on this machine.
struct WindowOnNewStore {
    TemporaryFolder folder;
    ConsoleOptions options = optionsIn(folder);
    SessionStore store{options.db};
    SessionController controller{options};
    MainWindow window{store, &controller};
};

} // namespace

TEST_CASE("a plan built and launched in the window streams into the live view, then fills the scaling and "
          "breakdown views, and a resubmitted run compares with it",
          "[ui][integration]") {
    WindowOnNewStore console;
    SessionStore& store = console.store;
    SessionController& controller = console.controller;
    MainWindow& window = console.window;
    window.resize(1280, 820);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::sessionShown);
    QSignalSpy compared(window.storedSessions(), &StoredSessionLoader::sessionsCompared);

    QSignalSpy records(&controller, &SessionController::recordsArrived);
    QSignalSpy finished(&controller, &SessionController::sessionFinished);
    // The plan builder holds the plan and its TOML; its Launch button starts it on this machine.
    window.showTab(QStringLiteral("planTab"));
    window.planBuilder()->setPlan(tinyPlan(12));
    CHECK_THAT(window.planBuilder()->tomlText().toStdString(), Catch::Contains("synthetic-cifar"));
    window.planBuilder()->findChild<QPushButton*>(QStringLiteral("launch"))->click();
    CHECK(controller.busy());
    CHECK_FALSE(window.launchPlan(tinyPlan(12), QStringLiteral("local"))); // one session at a time

    // While the first run trains, its records reach the live model and the live view draws them.
    REQUIRE(records.wait(120'000));
    CHECK(window.liveRuns()->rowCount() == 2);
    CHECK(window.shownRuns() == window.liveRuns());
    REQUIRE(finished.wait(240'000));
    const auto outcome = finished.takeFirst();
    CHECK(outcome.at(1).toInt() == 2); // runs
    CHECK(outcome.at(2).toInt() == 0); // failed runs

    const std::int64_t session = outcome.at(0).toLongLong();
    CHECK(window.shownSessionId() == session);
    // The finished runs' figures are read by the loader after each run ends.
    while (window.scalingModel()->rowCount() < 2)
        REQUIRE(loaded.wait(10'000));
    RunProgressModel* runs = window.shownRuns();
    REQUIRE(runs->rowCount() == 2);
    for (int row = 0; row < 2; ++row) {
        CHECK(runs->data(runs->index(row, RunProgressModel::State)).toString() == "done");
        CHECK(runs->data(runs->index(row, RunProgressModel::Progress), Qt::UserRole).toDouble() == 1.0);
        // Every step the store holds was delivered to the window, none twice.
        CHECK(runs->trace(row).step.size() == store.steps(runs->runId(row)).size());
        CHECK(runs->trace(row).step.size() == 12);
    }
    window.liveView()->refresh();
    CHECK(window.liveView()->drawnPoints(QStringLiteral("loss")) == 24); // two runs of 12 steps, overlaid
    CHECK(window.liveView()->drawnPoints(QStringLiteral("breakdown")) == 5 * 12);
    REQUIRE(window.scalingModel()->rowCount() == 2); // 1 and 2 ranks
    CHECK(window.scalingModel()->data(window.scalingModel()->index(1, ScalingModel::Ranks)).toInt() == 2);
    // Breakdown: one stacked bar per rank count, the parts adding up to the step time.
    BreakdownModel* breakdown = window.breakdownModel();
    REQUIRE(breakdown->rowCount() == 2);
    double parts = 0;
    for (int column : {BreakdownModel::DataMs, BreakdownModel::ForwardMs, BreakdownModel::BackwardMs,
                       BreakdownModel::OptimizerMs, BreakdownModel::ExposedCommMs})
        parts += breakdown->data(breakdown->index(1, column)).toDouble();
    CHECK(parts ==
          Approx(breakdown->data(breakdown->index(1, BreakdownModel::StepMs)).toDouble()).epsilon(0.01));

    // Resubmit the 2-rank run: a new session of that run alone, which the Compare tab sets against the first.
    auto* progress = window.findChild<QTableView*>(QStringLiteral("progressTable"));
    progress->selectRow(1);
    window.findChild<QPushButton*>(QStringLiteral("resubmit"))->click();
    REQUIRE(finished.wait(240'000));
    const auto again = finished.takeFirst();
    CHECK(again.at(1).toInt() == 1);
    const std::int64_t second = again.at(0).toLongLong();
    CHECK(store.runs(second).at(0).name == "resnet20-synthetic-cifar-n2-r1");
    // In the Compare tab the user picks the sessions with the two combos (keys, as a user would): A = the
    // resubmitted run, B = the first session. The 1-rank run is then only in B; the 2-rank run's figures in
    // both.
    window.showTab(QStringLiteral("compareTab"));
    compared.clear();
    chooseWithKeys(window.findChild<QComboBox*>(QStringLiteral("compareA")), second);
    chooseWithKeys(window.findChild<QComboBox*>(QStringLiteral("compareB")), session);
    while (compared.isEmpty() || compared.last().at(0).value<StoredComparison>().b != session)
        REQUIRE(compared.wait(10'000));
    ComparisonModel* figures = window.comparisonView()->figuresModel();
    const auto inColumns = [&](int ranks) { // rows of that rank count: (has A, has B)
        std::set<std::pair<bool, bool>> seen;
        for (int row = 0; row < figures->rowCount(); ++row)
            if (figures->data(figures->index(row, ComparisonModel::Ranks)).toInt() == ranks)
                seen.insert({figures->data(figures->index(row, ComparisonModel::A), Qt::UserRole).isValid(),
                             figures->data(figures->index(row, ComparisonModel::B), Qt::UserRole).isValid()});
        return seen;
    };
    CHECK(inColumns(1) == std::set<std::pair<bool, bool>>{{false, true}});
    CHECK(inColumns(2).count({true, true}) == 1);
    // And back: the first session as the reference, the resubmission as B.
    compared.clear();
    chooseWithKeys(window.findChild<QComboBox*>(QStringLiteral("compareA")), session);
    chooseWithKeys(window.findChild<QComboBox*>(QStringLiteral("compareB")), second);
    while (compared.isEmpty() || compared.last().at(0).value<StoredComparison>().b != second)
        REQUIRE(compared.wait(10'000));
    CHECK(inColumns(1) == std::set<std::pair<bool, bool>>{{true, false}});
}

TEST_CASE("cancelling a running session from the window ends its runs as cancelled and keeps their records",
          "[ui][integration]") {
    WindowOnNewStore console;
    SessionStore& store = console.store;
    SessionController& controller = console.controller;
    MainWindow& window = console.window;
    window.show();

    QSignalSpy records(&controller, &SessionController::recordsArrived);
    QSignalSpy finished(&controller, &SessionController::sessionFinished);
    REQUIRE(window.launchPlan(tinyPlan(100'000), QStringLiteral("local")));
    while (window.liveRuns()->rowCount() == 0 ||
           window.liveRuns()->trace(0).step.size() < 3) // a few steps in
        REQUIRE(records.wait(120'000));
    // Cancel session asks first: answered yes.
    int asked = 0;
    window.setCancelQuestion([&](const QString&) {
        ++asked;
        return true;
    });
    auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelSession"));
    REQUIRE(QTest::qWaitFor([&] { return cancel->isEnabled(); }, 10'000));
    cancel->click();
    CHECK(asked == 1);
    REQUIRE(finished.wait(60'000));
    const auto ended = finished.takeFirst();
    const std::int64_t session = ended.at(0).toLongLong();
    CHECK(ended.at(3).value<SessionStatus>() == SessionStatus::Cancelled); // the session, as stored
    CHECK(storedWord(store.session(session)->status) == "cancelled");
    const auto stored = store.runs(session);
    REQUIRE(stored.size() == 1); // the 2-rank run was never started
    CHECK(storedWord(stored[0].status) == "cancelled");
    CHECK(stored[0].step_count > 0);
    CHECK(window.shownRuns()->data(window.shownRuns()->index(0, RunProgressModel::State)).toString() ==
          "cancelled");

    // Open log: both of the run's logs are read where it ran (here: this machine), over one connection.
    QSignalSpy logs(&controller, &SessionController::textFetched);
    window.findChild<QTableView*>(QStringLiteral("progressTable"))->selectRow(0);
    window.findChild<QPushButton*>(QStringLiteral("openLog"))->click();
    while (logs.count() < 2)
        REQUIRE(logs.wait(30'000));
    QStringList paths;
    for (const auto& answer : logs) {
        paths << answer.at(0).toString();
        CHECK(answer.at(2).toString().isEmpty()); // no error
    }
    CHECK(paths.filter(QStringLiteral("stderr.log")).size() == 1);
    CHECK(paths.filter(QStringLiteral("stdout.log")).size() == 1);
}
