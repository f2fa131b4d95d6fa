// The console's main window: stored sessions on the left; the chosen session's runs, live charts and analysis
// in tabs; plans launched through the SessionController (the same runner as --batch). Stored sessions are
// read by a StoredSessionLoader on its worker thread; the window shows what it hands over.
#include "main_window.h"

#include "breakdown_model.h"
#include "breakdown_tab.h"
#include "chart_export.h"
#include "cluster_settings.h"
#include "clusters_widget.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "compare_tab.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "export_file_name.h"
#include "first_start_panel.h"
#include "form_widgets.h"
#include "import_dialog.h"
#include "install_layout.h"
#include "live_view.h"
#include "model_csv.h"
#include "plan_builder_widget.h"
#include "rank_times_model.h"
#include "run_progress_model.h"
#include "run_table_model.h"
#include "runs_tab.h"
#include "scaling_model.h"
#include "scaling_tab.h"
#include "session_browser.h"
#include "session_cancel_question.h"
#include "session_controller.h"
#include "session_report.h"
#include "session_store.h"
#include "settings_diff_model.h"
#include "stored_session_loader.h"
#include "table_export.h"

#include <QAction>
#include <QCloseEvent>
#include <QDate>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <exception>

namespace scalebench {

MainWindow::MainWindow(SessionStore& store, SessionController* controller, QWidget* parent)
    : QMainWindow(parent), controller_(controller), loader_(new StoredSessionLoader(store.file(), this)),
      live_runs_(new RunProgressModel(this)), stored_runs_(new RunProgressModel(this)),
      shown_runs_(stored_runs_), store_file_(QString::fromStdString(store.file().string())),
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
    resize(1280, 800); // a laptop screen; every tab fits it (tests/test_ui_views.cpp, "fits 1280x800")
    resizeDocks({dock}, {430}, Qt::Horizontal);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    loader_->listClusters();
    reload();
}

void MainWindow::buildTabs(SessionStore& store) {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);

    // Plan: build a plan (the TOML batch mode reads), preview its job scripts, launch it.
    plan_builder_ = new PlanBuilderWidget(this);
    if (controller_)
        plan_builder_->setLaunchSettings(controller_->options().engine, controller_->options().out_dir,
                                         store.storeId());
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

namespace {

// A save dialog that suggests `name` in the folder the last export went to (the home folder at first), and
// remembers the folder chosen.
QString askSavePath(QWidget* parent, const QString& title, const QString& name, const QString& filters,
                    QString* filter = nullptr) {
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder"), QDir::homePath()).toString();
    const QString path =
        QFileDialog::getSaveFileName(parent, title, QDir(folder).filePath(name), filters, filter);
    if (!path.isEmpty()) settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    return path;
}

} // namespace

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open_plan = file->addAction(tr("&Open and launch plan..."), this, &MainWindow::openPlanFile);
    open_plan->setShortcut(QKeySequence::Open);
    QAction* refresh = file->addAction(tr("&Reload sessions"), this, &MainWindow::reload);
    refresh->setShortcut(QKeySequence::Refresh);
    QAction* screenshot = file->addAction(tr("Save window as &PNG..."), this, [this] {
        const QString path = askSavePath(this, tr("Save window"),
                                         suggestedExportName(QStringLiteral("png"), QStringLiteral("window")),
                                         tr("PNG (*.png)"));
        if (!path.isEmpty() && !saveScreenshot(path)) status_text_->setText(tr("cannot write %1").arg(path));
    });
    screenshot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* export_view = file->addAction(tr("&Export this tab (PNG, SVG or CSV)..."), this, [this] {
        // A table tab suggests its CSV, a chart tab its picture.
        const QString tab = tabs_->currentWidget()->property("tabName").toString();
        const bool table = tab == QLatin1String("compareTab") || tab == QLatin1String("runsTab");
        QString filter = table ? tr("CSV table (*.csv)") : tr("PNG image (*.png)");
        const QString path = askSavePath(
            this, tr("Export"), suggestedExportName(table ? QStringLiteral("csv") : QStringLiteral("png")),
            tr("PNG image (*.png);;SVG drawing (*.svg);;CSV table (*.csv)"), &filter);
        if (!path.isEmpty()) exportCurrentTab(path);
    });
    export_view->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* import_logs = file->addAction(tr("&Import logs..."), this, &MainWindow::askImportLogs);
    import_logs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    file->addAction(tr("Export &report..."), this, [this] {
        const QString path = askSavePath(
            this, tr("Export report"), suggestedExportName(QStringLiteral("html"), QStringLiteral("report")),
            tr("HTML page (*.html)"));
        if (!path.isEmpty()) exportReport(path);
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* session = menuBar()->addMenu(tr("&Session"));
    QAction* find = session->addAction(tr("&Find session"), this, [this] { browser_->focusSearch(); });
    find->setShortcut(QKeySequence::Find);
    QAction* cancel =
        session->addAction(tr("&Cancel running session..."), this, [this] { cancelRunningSession(); });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
}

void MainWindow::connectLoader() {
    connect(loader_, &StoredSessionLoader::sessionsListed, this, &MainWindow::showSessionList);
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

void MainWindow::connectController() {
    if (!controller_) return;
    connect(controller_, &SessionController::progressLine, this,
            [this](const QString& line) { status_text_->setText(line); });
    connect(controller_, &SessionController::sessionStarted, this,
            [this](qint64 session_id, const std::vector<RunSpec>& runs) {
                live_session_ = session_id;
                live_runs_->startSession(session_id, runs);
                runs_finished_ = 0;
                session_progress_->setRange(0, static_cast<int>(runs.size()));
                session_progress_->setValue(0);
                session_progress_->show();
                reload(); // lists the new session and shows it
            });
    connect(controller_, &SessionController::runSubmitted, this,
            [this](const SessionEvents::SubmittedRun& run) {
                live_runs_->runSubmitted(run.run_id, run.spec.name, run.job_id, run.run_dir);
            });
    connect(controller_, &SessionController::runStateChanged, live_runs_, &RunProgressModel::runStateChanged);
    connect(controller_, &SessionController::recordsArrived, live_runs_, &RunProgressModel::appendRecords);
    connect(controller_, &SessionController::runFinished, this,
            [this](qint64 run_id, const QString& status, const QString& error) {
                live_runs_->runFinished(run_id, status, error);
                session_progress_->setValue(++runs_finished_);
                // The finished run's figures join the tables and charts.
                if (shown_session_ == live_session_) loader_->loadSession(shown_session_);
            });
    connect(controller_, &SessionController::sessionFinished, this,
            [this](qint64 session_id, int runs, int failed, const QString& status) {
                session_progress_->hide();
                if (status == QLatin1String("cancelled"))
                    status_text_->setText(failed == 0 ? tr("session %1 cancelled").arg(session_id)
                                                      : tr("session %1 cancelled (%2 of %3 runs failed)")
                                                            .arg(session_id)
                                                            .arg(failed)
                                                            .arg(runs));
                else
                    status_text_->setText(
                        failed == 0
                            ? tr("session %1: %2 runs done").arg(session_id).arg(runs)
                            : tr("session %1: %2 of %3 runs failed").arg(session_id).arg(failed).arg(runs));
                listSessions(shown_session_);
            });
    connect(controller_, &SessionController::sessionFailed, this, [this](const QString& error) {
        session_progress_->hide();
        status_text_->setText(
            tr("the session could not run: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        QMessageBox::warning(this, tr("Session failed"), error);
        reload();
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

QAbstractItemModel* MainWindow::currentTable() const {
    const QString tab = tabs_->currentWidget()->property("tabName").toString();
    if (tab == QLatin1String("runsTab")) return runs_tab_->resultsModel();
    if (tab == QLatin1String("liveTab")) return shown_runs_;
    if (tab == QLatin1String("scalingTab")) return scalingModel();
    if (tab == QLatin1String("breakdownTab")) return breakdownModel();
    if (tab == QLatin1String("collectivesTab")) return collectives_view_->model();
    if (tab == QLatin1String("compareTab")) return comparisonView()->figuresModel();
    return nullptr;
}

QString MainWindow::suggestedExportName(const QString& suffix, const QString& what) const {
    QString tab = tabs_->currentWidget()->property("tabName").toString();
    tab.chop(tab.endsWith(QLatin1String("Tab")) ? 3 : 0);
    const QString name = what.isEmpty() ? tab : what;
    QString source =
        shown_session_ ? QStringLiteral("session-%1").arg(shown_session_) : QStringLiteral("scalebench");
    if (what.isEmpty() && tab == QLatin1String("compare") && compare_tab_->chosenA() &&
        compare_tab_->chosenB())
        source = QStringLiteral("session-%1-vs-%2").arg(compare_tab_->chosenA()).arg(compare_tab_->chosenB());
    return exportFileName(source, name, QDate::currentDate(), suffix);
}

bool MainWindow::exportCurrentTab(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QString tab = tabs_->currentWidget()->property("tabName").toString();
    const bool compare = tab == QLatin1String("compareTab");
    // "12 quickstart": which session a line of a CSV comes from.
    const auto sessionLabel = [this](std::int64_t id, const QString& known_name = {}) {
        const SessionRow* row = browser_->session(id);
        const QString name = row ? QString::fromStdString(row->name) : known_name;
        return name.isEmpty() ? QString::number(id) : QStringLiteral("%1 %2").arg(id).arg(name);
    };
    QString error;
    bool ok = false;
    if (suffix == QLatin1String("csv")) {
        QAbstractItemModel* table = currentTable();
        std::vector<CsvConstant> leading;
        if (compare) {
            leading = {{QStringLiteral("session_a"),
                        sessionLabel(compare_tab_->chosenA(), comparisonView()->figuresModel()->nameA())},
                       {QStringLiteral("session_b"),
                        sessionLabel(compare_tab_->chosenB(), comparisonView()->figuresModel()->nameB())}};
        } else if (shown_session_) {
            leading = {{QStringLiteral("session"), sessionLabel(shown_session_)}};
        }
        const auto addSeries = [&](const auto* model) { // the one series the tab shows
            leading.push_back({QStringLiteral("workload"), model->workload()});
            leading.push_back({QStringLiteral("dataset"), model->dataset()});
            leading.push_back({QStringLiteral("series"), model->seriesLabel()});
        };
        if (tab == QLatin1String("scalingTab")) addSeries(scalingModel());
        if (tab == QLatin1String("breakdownTab")) addSeries(breakdownModel());
        ok = table && saveModelCsv(*table, path, &error, leading);
        if (!table) error = tr("this tab has no table");
        // Compare's settings that differ: a second file beside the figures.
        const QFileInfo info(path);
        const QString settings_path =
            info.dir().filePath(info.completeBaseName() + QStringLiteral("-settings.csv"));
        if (ok && compare)
            ok = saveModelCsv(*comparisonView()->settingsModel(), settings_path, &error, leading);
        if (ok && compare) {
            status_text_->setText(tr("exported %1 and %2").arg(path, settings_path));
            return true;
        }
    } else if (compare || tab == QLatin1String("runsTab")) { // the tables whole, not the part in view
        QString heading;
        std::vector<ExportedTable> tables;
        if (compare) {
            heading = comparisonView()->heading()->text();
            tables = comparisonView()->exportedTables();
        } else {
            heading = tr("<b>Session %1</b>: runs").arg(sessionLabel(shown_session_).toHtmlEscaped());
            for (const QTableView* view : runs_tab_->findChildren<QTableView*>())
                tables.push_back(shownTable(*view));
        }
        ok = suffix == QLatin1String("svg") ? saveTablesSvg(heading, tables, path, &error)
                                            : saveTablesPng(heading, tables, path, &error);
    } else if (suffix == QLatin1String("svg")) {
        ok = saveWidgetSvg(*tabs_->currentWidget(), path, {}, &error);
    } else {
        ok = saveWidgetPng(*tabs_->currentWidget(), path, {}, &error);
    }
    status_text_->setText(ok ? tr("exported %1").arg(path) : tr("cannot export %1: %2").arg(path, error));
    return ok;
}

bool MainWindow::exportReport(const QString& path) {
    // A session chosen but not loaded yet has no results to write.
    const SessionRow* row = results_session_ == shown_session_ ? browser_->session(shown_session_) : nullptr;
    QString error = tr("no stored session is shown");
    const bool ok = row && writeSessionReport(*row, shown_results_, path, &error, std::nullopt,
                                              shown_capsules_, shown_projection_);
    status_text_->setText(ok ? tr("report written to %1").arg(path)
                             : tr("cannot write %1: %2").arg(path, error));
    return ok;
}

bool MainWindow::launchPlan(const RunPlan& plan, const QString& cluster) {
    if (!controller_) return false;
    if (!controller_->launch(plan, cluster)) {
        status_text_->setText(tr("a session is still running: wait for it or cancel it first"));
        return false;
    }
    const bool here = cluster.isEmpty() || cluster == QLatin1String(kLocalClusterName);
    QString started = tr("starting '%1' on %2...")
                          .arg(QString::fromStdString(plan.name), here ? tr("this machine") : cluster);
    for (const auto& warning : plan.warnings)
        started += tr("  warning: %1").arg(QString::fromStdString(warning));
    status_text_->setText(started);
    return true;
}

bool MainWindow::cancelRunningSession() {
    if (!controller_ || !controller_->busy()) {
        status_text_->setText(tr("no session is running"));
        return false;
    }
    const SessionRow* row = browser_->session(live_session_);
    const QString name = row ? QString::fromStdString(row->name) : QString();
    if (!ask_cancel_(sessionCancelQuestion(live_session_, name, *live_runs_))) {
        status_text_->setText(tr("session %1 not cancelled: it goes on").arg(live_session_));
        return false;
    }
    controller_->cancelSession();
    status_text_->setText(tr("cancelling the session's runs..."));
    return true;
}

void MainWindow::askImportLogs() {
    ImportDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) importLogs(dialog.request());
}

std::int64_t MainWindow::importLogs(const ImportRequest& request) {
    try {
        SessionStore store(store_file_.toStdString());
        const ImportOutcome outcome = scalebench::importLogs(store, request);
        QStringList errors;
        for (const ImportedFile& f : outcome.files)
            if (!f.error.empty()) errors << QString::fromStdString(f.run_name + ": " + f.error);
        status_text_->setText(tr("imported %1 of %2 file(s) as %3 into session %4")
                                  .arg(outcome.files.size() - static_cast<std::size_t>(errors.size()))
                                  .arg(outcome.files.size())
                                  .arg(QString::fromStdString(request.format))
                                  .arg(outcome.session_id));
        listSessions(outcome.session_id);
        if (!errors.isEmpty()) { // shown without blocking: the import is done
            auto* box =
                new QMessageBox(QMessageBox::Warning, tr("Import"),
                                tr("These files gave no record (their runs are stored as failed):\n%1")
                                    .arg(errors.join(QLatin1Char('\n'))),
                                QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("importErrors"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        return outcome.session_id;
    } catch (const std::exception& error) {
        status_text_->setText(tr("cannot import: %1").arg(QString::fromLocal8Bit(error.what())));
        return 0;
    }
}

void MainWindow::openPlanFile() {
    // The dialog starts among the example plans scalebench ships (installed or in the source tree).
    const QString path = QFileDialog::getOpenFileName(this, tr("Open plan"),
                                                      QString::fromStdString(ownExamplePlans().string()),
                                                      tr("scalebench plans (*.toml)"));
    if (path.isEmpty()) return;
    openAndLaunchPlan(path);
}

std::optional<RunPlan> MainWindow::readPlan(const QString& path) {
    try {
        return parsePlanFile(path.toStdString());
    } catch (const std::exception& error) {
        QMessageBox::warning(this, tr("Plan error"), QString::fromLocal8Bit(error.what()));
        return std::nullopt;
    }
}

bool MainWindow::openAndLaunchPlan(const QString& path) {
    const std::optional<RunPlan> plan = readPlan(path);
    if (!plan) return false;
    // Where the Plan tab's Launch button launches (its launch target), said before anything starts.
    const auto count = expandPlan(*plan).size();
    const QString runs = count == 1 ? tr("1 run") : tr("%1 runs").arg(count);
    const QString question =
        tr("Launch %1 (%2) on %3?")
            .arg(QString::fromStdString(plan->name), runs, plan_builder_->launchTargetName());
    if (!ask_launch_(question)) {
        status_text_->setText(tr("'%1' not launched").arg(QString::fromStdString(plan->name)));
        return false;
    }
    return launchPlan(*plan, plan_builder_->launchTarget());
}

bool MainWindow::launchQuickstart() {
    // Its button says where it runs (this machine), so nothing is asked: one click to a first result.
    const std::optional<RunPlan> plan =
        readPlan(QString::fromStdString((ownExamplePlans() / "quickstart.toml").string()));
    if (!plan || !launchPlan(*plan, QString::fromLatin1(kLocalClusterName))) return false;
    showTab(QStringLiteral("runsTab"));
    return true;
}

bool MainWindow::saveScreenshot(const QString& path) {
    const QImage image = grab().toImage();
    return !image.isNull() && image.save(path, "PNG");
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

} // namespace scalebench
