// The console's main window: stored sessions on the left; the chosen session's runs, live charts and analysis
// in tabs; plans launched through the SessionController (the same runner as --batch). Stored sessions are
// read by a StoredSessionLoader on its worker thread; the window shows what it hands over. Here: the window
// built and the sessions shown; its menus and exports, its launches and its imports have files of their own
// (main_window_menus.cpp, main_window_launch.cpp, main_window_import.cpp).
#include "main_window.h"

#include "breakdown_model.h"
#include "breakdown_tab.h"
#include "clusters_widget.h"
#include "collectives_view.h"
#include "compare_tab.h"
#include "comparison_view.h"
#include "first_start_panel.h"
#include "form_widgets.h"
#include "live_view.h"
#include "plan_builder_widget.h"
#include "rank_times_model.h"
#include "run_progress_model.h"
#include "runs_tab.h"
#include "scaling_model.h"
#include "scaling_tab.h"
#include "session_browser.h"
#include "session_controller.h"
#include "store_address.h"
#include "stored_session_loader.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace scalebench {

MainWindow::MainWindow(SessionStore& store, SessionController* controller, QWidget* parent)
    : MainWindow(storeAddress(store), controller, parent) {}

MainWindow::MainWindow(const StoreAddress& store, SessionController* controller, QWidget* parent)
    : QMainWindow(parent), controller_(controller), loader_(new StoredSessionLoader(store.file, this)),
      live_runs_(new RunProgressModel(this)), stored_runs_(new RunProgressModel(this)),
      shown_runs_(stored_runs_), store_file_(QString::fromStdString(store.file.string())),
      other_tabs_(new QTimer(this)) {
    setWindowTitle(QStringLiteral("scalebench"));
    setObjectName(QStringLiteral("mainWindow"));
    other_tabs_->setSingleShot(true);
    other_tabs_->setInterval(0); // a timer, not a posted call: input waiting is handled first
    connect(other_tabs_, &QTimer::timeout, this, &MainWindow::showOtherTabs);

    // Sessions: a searchable list in a dock.
    browser_ = new SessionBrowser(this);
    auto* dock = new QDockWidget(tr("Sessions"), this);
    dock->setObjectName(QStringLiteral("sessionsDock"));
    dock->setWidget(browser_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    connect(browser_, &SessionBrowser::sessionChosen, this, &MainWindow::showSession);

    buildTabs(store);
    buildStatusBar();
    ask_launch_ = [this](const QString& question) {
        return QMessageBox::question(this, tr("Open and launch plan"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::Yes) == QMessageBox::Yes;
    };
    ask_cancel_ = [this](const QString& question) {
        return QMessageBox::question(this, tr("Cancel session"), question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };
    buildActions();
    connectLoader();
    connectController();
    showTab(QStringLiteral("runsTab"));
    resize(1280,
           800); // a laptop screen; every tab fits it (tests/ui/test_main_window_views.cpp, "fits 1280x800")
    resizeDocks({dock}, {430}, Qt::Horizontal);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    loader_->listClusters();
    reload();
}

void MainWindow::buildTabs(const StoreAddress& store) {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);

    // Plan: build a plan (the TOML batch mode reads), preview its job scripts, launch it.
    plan_builder_ = new PlanBuilderWidget(this);
    if (controller_)
        plan_builder_->setLaunchSettings(controller_->options().engine, controller_->options().out_dir,
                                         store.id);
    addTab(plan_builder_, QStringLiteral("planTab"), tr("Pla&n"));
    connect(plan_builder_, &PlanBuilderWidget::launchRequested, this,
            [this](const RunPlan& plan, const QString& cluster) {
                if (launchPlan(plan, cluster)) showTab(QStringLiteral("runsTab"));
            });
    runs_tab_ = new RunsTab(controller_, shown_runs_, this);
    addTab(runs_tab_, QStringLiteral("runsTab"), tr("&Runs"));
    live_view_ = new LiveView(shown_runs_, this);
    addTab(live_view_, QStringLiteral("liveTab"), tr("&Live"));
    scaling_tab_ = new ScalingTab(this);
    addTab(scaling_tab_, QStringLiteral("scalingTab"), tr("&Scaling"));
    breakdown_tab_ = new BreakdownTab(this);
    addTab(breakdown_tab_, QStringLiteral("breakdownTab"), tr("&Breakdown"));
    collectives_view_ = new CollectivesView(this);
    addTab(collectives_view_, QStringLiteral("collectivesTab"), tr("&Collectives"));
    compare_tab_ = new CompareTab(this);
    addTab(compare_tab_, QStringLiteral("compareTab"), tr("Com&pare"));
    // Clusters: add, edit, remove, test the connection (host key check); this machine is always there.
    clusters_view_ = new ClustersWidget(*loader_, this);
    addTab(clusters_view_, QStringLiteral("clustersTab"), tr("Clus&ters"));

    // An empty store: the Runs tab leads to a first result.
    FirstStartPanel* first_start = runs_tab_->firstStart();
    first_start->setLaunchEnabled(controller_ != nullptr);
    connect(first_start, &FirstStartPanel::quickstartRequested, this, &MainWindow::launchQuickstart);
    connect(first_start, &FirstStartPanel::openPlanRequested, this, &MainWindow::openPlanFile);
    connect(first_start, &FirstStartPanel::addClusterRequested, this, [this] {
        showTab(QStringLiteral("clustersTab"));
        clusters_view_->startNewCluster();
    });
    connect(first_start, &FirstStartPanel::importLogsRequested, this, &MainWindow::askImportLogs);
    connect(runs_tab_, &RunsTab::sessionCancelRequested, this, &MainWindow::cancelRunningSession);

    // A selected run: overlaid in the live view, its per-rank times shown.
    connect(runs_tab_, &RunsTab::runsSelected, this, [this](const std::vector<int>& rows) {
        live_view_->setRows(rows);
        if (!rows.empty()) breakdown_tab_->showStragglers(shown_runs_->runId(rows.front()));
    });
    connect(runs_tab_, &RunsTab::statusMessage, this,
            [this](const QString& text) { status_text_->setText(text); });
    connect(compare_tab_, &CompareTab::comparisonRequested, loader_, &StoredSessionLoader::compareSessions);
    // A save or removal answers with the clusters stored after it: the plan builder takes them as they are.
    connect(clusters_view_, &ClustersWidget::clustersChanged, plan_builder_, &PlanBuilderWidget::setClusters);
}

void MainWindow::buildStatusBar() {
    session_progress_ = new QProgressBar(this);
    session_progress_->setObjectName(QStringLiteral("sessionProgress"));
    session_progress_->setMaximumWidth(240);
    session_progress_->setFormat(tr("%v of %m runs"));
    session_progress_->hide();
    status_text_ = new QLabel(this);
    status_text_->setObjectName(QStringLiteral("statusText"));
    statusBar()->addWidget(status_text_, 1);
    statusBar()->addPermanentWidget(session_progress_);
}

void MainWindow::addTab(QWidget* page, const QString& object_name, const QString& title) {
    page->setObjectName(page->objectName().isEmpty() ? object_name : page->objectName());
    // The Plan and Clusters tabs' forms are wider than what a 1280-pixel screen leaves beside the sessions:
    // they scroll there, whole, instead of widening the window past the screen.
    const bool wide =
        object_name == QStringLiteral("planTab") || object_name == QStringLiteral("clustersTab");
    const int index = tabs_->addTab(wide ? scrollable(page) : page, title);
    tabs_->widget(index)->setProperty("tabName", object_name);
    if (index < 9) {
        auto* go = new QAction(this);
        go->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + index)));
        connect(go, &QAction::triggered, this, [this, index] { tabs_->setCurrentIndex(index); });
        addAction(go);
    }
}

void MainWindow::showTab(const QString& object_name) {
    if (object_name == QStringLiteral("projectionTab")) { // the Scaling tab's Projection page
        scaling_tab_->showProjectionPage();
        return showTab(QStringLiteral("scalingTab"));
    }
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->widget(i)->property("tabName").toString() == object_name) tabs_->setCurrentIndex(i);
}

void MainWindow::connectLoader() {
    connect(loader_, &StoredSessionLoader::sessionsListed, this, &MainWindow::showSessionList);
    connect(loader_, &StoredSessionLoader::logsImported, this, &MainWindow::showImport);
    connect(loader_, &StoredSessionLoader::sessionDeleted, this, &MainWindow::showDeletion);
    connect(loader_, &StoredSessionLoader::sessionLoaded, this, &MainWindow::showStoredSession);
    connect(loader_, &StoredSessionLoader::clustersListed, this, &MainWindow::showClusters);
    connect(loader_, &StoredSessionLoader::sessionsCompared, this,
            [this](const StoredComparison& comparison) {
                if (!comparison.error.isEmpty())
                    status_text_->setText(tr("cannot compare sessions %1 and %2: %3")
                                              .arg(comparison.a)
                                              .arg(comparison.b)
                                              .arg(comparison.error));
                else
                    compare_tab_->showComparison(comparison);
            });
}

void MainWindow::reload() {
    listSessions(0);
}

void MainWindow::listSessions(std::int64_t keep) {
    keep_after_list_ = keep;
    loader_->listSessions();
}

void MainWindow::showSessionList(const StoredSessionList& list) {
    browser_->setSessions(list.sessions);
    runs_tab_->setStoreEmpty(list.error.isEmpty() && list.sessions.empty());
    if (!list.error.isEmpty()) {
        status_text_->setText(tr("cannot read %1: %2").arg(store_file_, list.error));
        showSession(0);
        return;
    }
    const std::size_t count = list.sessions.size();
    if (!controller_ || !controller_->busy())
        status_text_->setText(count == 1 ? tr("1 session in %1").arg(store_file_)
                                         : tr("%1 sessions in %2").arg(count).arg(store_file_));
    if (count == 0) {
        showSession(0);
        return;
    }
    compare_tab_->setSessions(list.sessions);
    // The store lists sessions by id, so the newest is the last row.
    if (keep_after_list_ == 0 || !selectSession(keep_after_list_)) selectSession(list.sessions.back().id);
}

void MainWindow::showClusters(const StoredClusterList& clusters) {
    if (!clusters.error.isEmpty())
        status_text_->setText(tr("cannot read the clusters: %1").arg(clusters.error));
    else
        plan_builder_->setClusters(clusters.clusters);
}

bool MainWindow::compareSessions(std::int64_t a, std::int64_t b) {
    return compare_tab_->compare(a, b);
}

bool MainWindow::selectSession(std::int64_t session_id) {
    if (!browser_->selectSession(session_id)) return false;
    if (shown_session_ != session_id) showSession(session_id);
    return true;
}

void MainWindow::showSession(std::int64_t session_id) {
    shown_session_ = session_id;
    const SessionRow* row = browser_->session(session_id);
    runs_tab_->setSession(row ? std::optional<SessionRow>(*row) : std::nullopt);
    if (session_id == 0) {
        showResults({});
        scaling_tab_->setProjectionInputs({});
        breakdown_tab_->clear();
        return;
    }
    stragglers_for_ = session_id;
    if (shown_session_ == live_session_ && controller_ && controller_->busy()) showRuns(live_runs_);
    loader_->loadSession(session_id);
}

void MainWindow::showStoredSession(const StoredSession& session) {
    if (session.session_id != shown_session_) return; // another session was chosen since
    if (!session.error.isEmpty()) {
        other_tabs_->stop();
        status_text_->setText(tr("cannot read session: %1").arg(session.error));
        showResults({}); // every view is emptied rather than left showing another session
        scaling_tab_->setProjectionInputs({});
        results_session_ = 0;
        shown_results_.clear();
        shown_capsules_.clear();
        shown_projection_ = {};
        breakdown_tab_->clear();
        emit sessionShown(session.session_id);
        return;
    }
    // The Runs tab now, the other tabs in the event loop's next turn: all of them in one turn kept a
    // 1000-run session's window from answering for ~50 ms (bench/window_stall_bench).
    runs_tab_->setResults(session.results);
    results_session_ = session.session_id;
    shown_results_ = session.results;
    shown_projection_ = {session.projection_inputs, session.projection_error.toStdString()};
    shown_capsules_.clear();
    if (const SessionRow* row = browser_->session(session.session_id))
        for (const StoredRun& run : session.runs)
            shown_capsules_.push_back(runCapsule(*row, run.run));
    breakdown_tab_->setRuns(session);
    other_tabs_->start();
    if (shown_session_ == live_session_ && controller_ && controller_->busy()) return; // the live runs stay
    stored_runs_->setStoredSession(session);
    showRuns(stored_runs_);
}

void MainWindow::showOtherTabs() {
    if (results_session_ == 0 || results_session_ != shown_session_) return; // another was chosen since
    scaling_tab_->setResults(shown_results_);
    breakdown_tab_->setResults(shown_results_);
    collectives_view_->setResults(shown_results_);
    scaling_tab_->setProjectionInputs(shown_projection_.series,
                                      QString::fromStdString(shown_projection_.error));
    if (stragglers_for_ == results_session_) {
        stragglers_for_ = 0;
        breakdown_tab_->showStragglers(0);
    }
    emit sessionShown(results_session_);
}

void MainWindow::showResults(const std::vector<RunResult>& results) {
    scaling_tab_->setResults(results);
    breakdown_tab_->setResults(results);
    collectives_view_->setResults(results);
    runs_tab_->setResults(results);
}

void MainWindow::showRuns(RunProgressModel* runs) {
    runs_tab_->showRuns(runs, runs == live_runs_);
    if (shown_runs_ == runs) return;
    shown_runs_ = runs;
    live_view_->setModel(runs); // the live view follows whichever model the table shows
}

ScalingModel* MainWindow::scalingModel() const {
    return scaling_tab_->model();
}
BreakdownModel* MainWindow::breakdownModel() const {
    return breakdown_tab_->breakdownModel();
}
RankTimesModel* MainWindow::rankTimesModel() const {
    return breakdown_tab_->rankTimesModel();
}
ComparisonView* MainWindow::comparisonView() const {
    return compare_tab_->view();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

} // namespace scalebench
