// The console's main window: stored sessions on the left; the chosen session's runs, live charts and analysis
// in tabs; plans launched through the SessionController (the same runner as --batch).
#include "main_window.h"

#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "chart_export.h"
#include "clusters_widget.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "decimal_delegate.h"
#include "live_view.h"
#include "model_csv.h"
#include "plan_builder_widget.h"
#include "progress_delegate.h"
#include "rank_times_chart_view.h"
#include "rank_times_model.h"
#include "run_progress_model.h"
#include "run_table_model.h"
#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "session_comparison.h"
#include "session_controller.h"
#include "session_filter_model.h"
#include "session_list_model.h"
#include "session_results.h"
#include "session_store.h"
#include "speedup_chart_view.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <exception>
#include <optional>

namespace scalebench {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

QString errorText(const std::exception& error) {
    return QString::fromLocal8Bit(error.what());
}

} // namespace

MainWindow::MainWindow(SessionStore& store, SessionController* controller, QWidget* parent)
    : QMainWindow(parent), store_(store), controller_(controller), sessions_(new SessionListModel(this)),
      session_filter_(new SessionFilterModel(this)), scaling_(new ScalingModel(this)),
      results_(new RunTableModel(this)), live_runs_(new RunProgressModel(this)),
      stored_runs_(new RunProgressModel(this)), shown_runs_(stored_runs_) {
    setWindowTitle(QStringLiteral("scalebench"));
    setObjectName(QStringLiteral("mainWindow"));

    // Sessions: a searchable list in a dock.
    session_filter_->setSourceModel(sessions_);
    auto* dock_body = new QWidget(this);
    auto* dock_layout = new QVBoxLayout(dock_body);
    dock_layout->setContentsMargins(4, 4, 4, 4);
    session_search_ = new QLineEdit(dock_body);
    session_search_->setObjectName(QStringLiteral("sessionSearch"));
    session_search_->setPlaceholderText(tr("Search sessions (name, cluster, status, date)"));
    session_search_->setClearButtonEnabled(true);
    session_view_ = makeTable(session_filter_, QStringLiteral("sessionTable"), dock_body);
    session_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    dock_layout->addWidget(session_search_);
    dock_layout->addWidget(session_view_);
    auto* dock = new QDockWidget(tr("Sessions"), this);
    dock->setObjectName(QStringLiteral("sessionsDock"));
    dock_body->setMinimumWidth(360);
    dock->setWidget(dock_body);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);

    // Plan: build a plan (the TOML batch mode reads), preview its job scripts, launch it.
    plan_builder_ = new PlanBuilderWidget(this);
    if (controller_)
        plan_builder_->setLaunchSettings(controller_->options().engine, controller_->options().out_dir,
                                         store_.storeId());
    addTab(plan_builder_, QStringLiteral("planTab"), tr("Pla&n"));
    connect(plan_builder_, &PlanBuilderWidget::launchRequested, this,
            [this](const RunPlan& plan, const QString& cluster) {
                if (launchPlan(plan, cluster)) showTab(QStringLiteral("runsTab"));
            });

    // Runs: the session's runs with state and progress, actions, and the finished runs' figures.
    auto* runs_page = new QWidget(this);
    auto* runs_layout = new QVBoxLayout(runs_page);
    auto* actions = new QHBoxLayout;
    auto button = [&](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, runs_page);
        b->setObjectName(name);
        b->setToolTip(tip);
        actions->addWidget(b);
        return b;
    };
    auto* cancel_run =
        button(QStringLiteral("cancelRun"), tr("Cancel run"), tr("Cancel the selected runs' jobs"));
    auto* cancel_all = button(QStringLiteral("cancelSession"), tr("Cancel session"),
                              tr("Cancel every run of the running session"));
    auto* resubmit =
        button(QStringLiteral("resubmit"), tr("Resubmit"),
               tr("Run the selected runs again, with the same plan and cluster, as a new session"));
    auto* open_log = button(QStringLiteral("openLog"), tr("Open log"),
                            tr("Show the selected run's stdout.log and stderr.log"));
    actions->addStretch(1);
    runs_layout->addLayout(actions);
    auto* runs_split = new QSplitter(Qt::Vertical, runs_page);
    progress_view_ = makeTable(shown_runs_, QStringLiteral("progressTable"), runs_split);
    progress_view_->setItemDelegateForColumn(RunProgressModel::Progress,
                                             new ProgressDelegate(progress_view_));
    results_view_ = makeTable(results_, QStringLiteral("runTable"), runs_split);
    runs_split->setStretchFactor(0, 1);
    runs_split->setStretchFactor(1, 1);
    runs_layout->addWidget(runs_split);
    addTab(runs_page, QStringLiteral("runsTab"), tr("&Runs"));

    live_view_ = new LiveView(shown_runs_, this);
    addTab(live_view_, QStringLiteral("liveTab"), tr("&Live"));
    // Scaling: throughput with its two-sigma band, and speedup with error bars and efficiency.
    auto* scaling_page = new QSplitter(Qt::Horizontal, this);
    chart_view_ = new ScalingChartView(scaling_, scaling_page);
    chart_view_->setObjectName(QStringLiteral("scalingChart"));
    auto* speedup_view = new SpeedupChartView(scaling_, scaling_page);
    speedup_view->setObjectName(QStringLiteral("speedupChart"));
    addTab(scaling_page, QStringLiteral("scalingTab"), tr("&Scaling"));

    // Breakdown: where a step's time goes per rank count, and which rank the others wait for.
    breakdown_ = new BreakdownModel(this);
    rank_times_ = new RankTimesModel(this);
    auto* breakdown_page = new QSplitter(Qt::Vertical, this);
    auto* breakdown_chart = new BreakdownChartView(breakdown_, breakdown_page);
    breakdown_chart->setObjectName(QStringLiteral("breakdownChart"));
    auto* breakdown_bottom = new QSplitter(Qt::Horizontal, breakdown_page);
    auto* breakdown_table = makeTable(breakdown_, QStringLiteral("breakdownTable"), breakdown_bottom);
    breakdown_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    breakdown_table->setItemDelegate(new DecimalDelegate(2, breakdown_table));
    breakdown_table->setItemDelegateForColumn(0, new QStyledItemDelegate(breakdown_table)); // ranks
    auto* stragglers = new QWidget(breakdown_bottom);
    auto* stragglers_layout = new QVBoxLayout(stragglers);
    stragglers_layout->setContentsMargins(0, 0, 0, 0);
    stragglers_heading_ = new QLabel(stragglers);
    stragglers_heading_->setWordWrap(true);
    stragglers_layout->addWidget(stragglers_heading_);
    auto* stragglers_split = new QSplitter(Qt::Horizontal, stragglers);
    new RankTimesChartView(rank_times_, stragglers_split);
    auto* rank_table = makeTable(rank_times_, QStringLiteral("rankTimesTable"), stragglers_split);
    rank_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    rank_table->setItemDelegate(new DecimalDelegate(2, rank_table));
    rank_table->setItemDelegateForColumn(0, new QStyledItemDelegate(rank_table)); // rank
    stragglers_split->setSizes({420, 400});
    stragglers_layout->addWidget(stragglers_split, 1);
    breakdown_bottom->setSizes({450, 600});
    breakdown_page->setSizes({480, 300});
    addTab(breakdown_page, QStringLiteral("breakdownTab"), tr("&Breakdown"));

    collectives_view_ = new CollectivesView(this);
    addTab(collectives_view_, QStringLiteral("collectivesTab"), tr("&Collectives"));

    // Compare: session A (reference) against session B.
    auto* compare_page = new QWidget(this);
    auto* compare_layout = new QVBoxLayout(compare_page);
    auto* compare_bar = new QHBoxLayout;
    compare_a_ = new QComboBox(compare_page);
    compare_a_->setObjectName(QStringLiteral("compareA"));
    compare_b_ = new QComboBox(compare_page);
    compare_b_->setObjectName(QStringLiteral("compareB"));
    for (QComboBox* choice : {compare_a_, compare_b_})
        choice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    compare_bar->addWidget(new QLabel(tr("A (reference):"), compare_page));
    compare_bar->addWidget(compare_a_);
    compare_bar->addSpacing(16);
    compare_bar->addWidget(new QLabel(tr("B:"), compare_page));
    compare_bar->addWidget(compare_b_);
    compare_bar->addStretch(1);
    compare_layout->addLayout(compare_bar);
    comparison_view_ = new ComparisonView(compare_page);
    compare_layout->addWidget(comparison_view_, 1);
    addTab(compare_page, QStringLiteral("compareTab"), tr("Com&pare"));
    // Clusters: add, edit, remove, test the connection (host key check); this machine is always there.
    clusters_view_ = new ClustersWidget(store_, this);
    addTab(clusters_view_, QStringLiteral("clustersTab"), tr("Clus&ters"));
    connect(clusters_view_, &ClustersWidget::clustersChanged, this, &MainWindow::listClusters);
    listClusters();

    for (QComboBox* choice : {compare_a_, compare_b_})
        connect(choice, &QComboBox::activated, this, [this] {
            compareSessions(compare_a_->currentData().toLongLong(), compare_b_->currentData().toLongLong());
        });

    session_progress_ = new QProgressBar(this);
    session_progress_->setObjectName(QStringLiteral("sessionProgress"));
    session_progress_->setMaximumWidth(240);
    session_progress_->setFormat(tr("%v of %m runs"));
    session_progress_->hide();
    status_text_ = new QLabel(this);
    statusBar()->addWidget(status_text_, 1);
    statusBar()->addPermanentWidget(session_progress_);

    connect(session_search_, &QLineEdit::textChanged, session_filter_, &SessionFilterModel::setSearchText);
    connect(session_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                showSession(current.isValid() ? session_filter_->mapToSource(current).row() : -1);
            });
    connectRunSelection();
    connect(sessions_, &QAbstractItemModel::modelReset, session_view_, &QTableView::resizeColumnsToContents);
    connect(results_, &QAbstractItemModel::modelReset, results_view_, &QTableView::resizeColumnsToContents);
    for (RunProgressModel* runs : {live_runs_, stored_runs_})
        connect(runs, &QAbstractItemModel::modelReset, progress_view_, [this] {
            progress_view_->resizeColumnsToContents();
            progress_view_->setColumnWidth(RunProgressModel::Progress, 160);
        });
    connect(cancel_run, &QPushButton::clicked, this, &MainWindow::cancelSelectedRun);
    connect(cancel_all, &QPushButton::clicked, this, [this] {
        if (controller_ && controller_->busy()) {
            controller_->cancelSession();
            status_text_->setText(tr("cancelling the session's runs..."));
        }
    });
    connect(resubmit, &QPushButton::clicked, this, &MainWindow::resubmitSelectedRuns);
    connect(open_log, &QPushButton::clicked, this, &MainWindow::openSelectedRunLog);

    buildActions();
    connectController();
    showTab(QStringLiteral("runsTab"));
    resize(1280, 820);
    resizeDocks({dock}, {430}, Qt::Horizontal);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    reload();
}

void MainWindow::addTab(QWidget* page, const QString& object_name, const QString& title) {
    page->setObjectName(page->objectName().isEmpty() ? object_name : page->objectName());
    const int index = tabs_->addTab(page, title);
    tabs_->widget(index)->setProperty("tabName", object_name);
    if (index < 9) {
        auto* go = new QAction(this);
        go->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + index)));
        connect(go, &QAction::triggered, this, [this, index] { tabs_->setCurrentIndex(index); });
        addAction(go);
    }
}

void MainWindow::showTab(const QString& object_name) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->widget(i)->property("tabName").toString() == object_name) tabs_->setCurrentIndex(i);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open_plan = file->addAction(tr("&Open and launch plan..."), this, &MainWindow::openPlanFile);
    open_plan->setShortcut(QKeySequence::Open);
    QAction* refresh = file->addAction(tr("&Reload sessions"), this, &MainWindow::reload);
    refresh->setShortcut(QKeySequence::Refresh);
    QAction* screenshot = file->addAction(tr("Save window as &PNG..."), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save window"), QString(), tr("PNG (*.png)"));
        if (!path.isEmpty() && !saveScreenshot(path)) status_text_->setText(tr("cannot write %1").arg(path));
    });
    screenshot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* export_view = file->addAction(tr("&Export this tab (PNG, SVG or CSV)..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export"), QString(), tr("PNG image (*.png);;SVG drawing (*.svg);;CSV table (*.csv)"));
        if (!path.isEmpty()) exportCurrentTab(path);
    });
    export_view->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* session = menuBar()->addMenu(tr("&Session"));
    QAction* find = session->addAction(tr("&Find session"), this, [this] {
        session_search_->setFocus();
        session_search_->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    QAction* cancel = session->addAction(tr("&Cancel running session"), this, [this] {
        if (controller_) controller_->cancelSession();
    });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
}

void MainWindow::connectController() {
    if (!controller_) return;
    connect(controller_, &SessionController::progressLine, this,
            [this](const QString& line) { status_text_->setText(line); });
    connect(controller_, &SessionController::sessionStarted, this,
            [this](qint64 session_id, const std::vector<RunSpec>& runs) {
                live_session_ = session_id;
                live_runs_->startSession(session_id, runs);
                runs_total_ = static_cast<int>(runs.size());
                runs_finished_ = 0;
                session_progress_->setRange(0, runs_total_);
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
                if (shown_session_ == live_session_) loadAnalysis();
            });
    connect(controller_, &SessionController::sessionFinished, this,
            [this](qint64 session_id, int runs, int failed) {
                session_progress_->hide();
                status_text_->setText(
                    failed == 0
                        ? tr("session %1: %2 runs done").arg(session_id).arg(runs)
                        : tr("session %1: %2 of %3 runs failed").arg(session_id).arg(failed).arg(runs));
                const std::int64_t shown = shown_session_;
                reload();
                selectSession(shown);
            });
    connect(controller_, &SessionController::sessionFailed, this, [this](const QString& error) {
        session_progress_->hide();
        status_text_->setText(
            tr("the session could not run: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        QMessageBox::warning(this, tr("Session failed"), error);
        reload();
    });
    connect(controller_, &SessionController::textFetched, this,
            [this](const QString& path, const QString& text, const QString& error) {
                auto* dialog = new QDialog(this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                dialog->setObjectName(QStringLiteral("logDialog"));
                dialog->setWindowTitle(path);
                auto* layout = new QVBoxLayout(dialog);
                auto* view = new QPlainTextEdit(dialog);
                view->setObjectName(QStringLiteral("logText"));
                view->setReadOnly(true);
                view->setLineWrapMode(QPlainTextEdit::NoWrap);
                view->setFont(QFont(QStringLiteral("monospace")));
                view->setPlainText(error.isEmpty() ? text : tr("cannot read %1: %2").arg(path, error));
                layout->addWidget(view);
                auto* close = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
                connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::close);
                layout->addWidget(close);
                dialog->resize(900, 600);
                dialog->show();
            });
}

void MainWindow::reload() {
    const QString file = QString::fromStdString(store_.file().string());
    try {
        sessions_->setSessions(store_.sessions());
    } catch (const std::exception& error) {
        sessions_->setSessions({});
        status_text_->setText(tr("cannot read %1: %2").arg(file, errorText(error)));
        showSession(-1);
        return;
    }
    const int count = sessions_->rowCount();
    if (!controller_ || !controller_->busy())
        status_text_->setText(count == 1 ? tr("1 session in %1").arg(file)
                                         : tr("%1 sessions in %2").arg(count).arg(file));
    if (count == 0) {
        showSession(-1);
        return;
    }
    fillComparisonChoices();
    // The store lists sessions by id, so the newest is the last row.
    selectSession(sessions_->sessionId(count - 1));
}

void MainWindow::listClusters() {
    try {
        std::vector<ClusterSettings> clusters;
        for (const auto& name : store_.clusterNames())
            if (auto cluster = store_.cluster(name)) clusters.push_back(*cluster);
        plan_builder_->setClusters(clusters);
    } catch (const std::exception& error) {
        if (status_text_) status_text_->setText(tr("cannot read the clusters: %1").arg(errorText(error)));
    }
}

void MainWindow::fillComparisonChoices() {
    const qint64 a = compare_a_->currentData().toLongLong(), b = compare_b_->currentData().toLongLong();
    for (QComboBox* choice : {compare_a_, compare_b_}) {
        choice->clear();
        for (int row = sessions_->rowCount() - 1; row >= 0; --row)
            choice->addItem(QStringLiteral("%1: %2  (%3)")
                                .arg(sessions_->sessionId(row))
                                .arg(sessions_->data(sessions_->index(row, 1)).toString(),
                                     sessions_->data(sessions_->index(row, 2)).toString()),
                            QVariant::fromValue<qint64>(sessions_->sessionId(row)));
    }
    // By default: the newest session (B) against the one before it (A).
    const int count = sessions_->rowCount();
    if (count >= 2 && (a == 0 || b == 0)) {
        compareSessions(sessions_->sessionId(count - 2), sessions_->sessionId(count - 1));
    } else if (a != 0 && b != 0) {
        compare_a_->setCurrentIndex(compare_a_->findData(QVariant::fromValue<qint64>(a)));
        compare_b_->setCurrentIndex(compare_b_->findData(QVariant::fromValue<qint64>(b)));
    }
}

bool MainWindow::compareSessions(std::int64_t a, std::int64_t b) {
    try {
        const SessionRow* row_a = sessions_->session(a);
        const SessionRow* row_b = sessions_->session(b);
        if (!row_a || !row_b) return false;
        comparison_view_->setSessions(loadComparedSession(store_, *row_a),
                                      loadComparedSession(store_, *row_b));
        compare_a_->setCurrentIndex(compare_a_->findData(QVariant::fromValue<qint64>(a)));
        compare_b_->setCurrentIndex(compare_b_->findData(QVariant::fromValue<qint64>(b)));
        return true;
    } catch (const std::exception& error) {
        status_text_->setText(
            tr("cannot compare sessions %1 and %2: %3").arg(a).arg(b).arg(errorText(error)));
        return false;
    }
}

void MainWindow::showStragglers(std::int64_t run_id) {
    try {
        // Without a chosen run: the session's first run with per-rank times, the one with the most ranks.
        std::vector<RankTimesRecord> times;
        QString name;
        if (run_id == 0) {
            int most = 0;
            for (const auto& run : store_.runs(shown_session_)) {
                if (run.ranks <= most) continue;
                auto t = store_.rankTimes(run.id);
                if (t.empty()) continue;
                most = run.ranks;
                times = std::move(t);
                name = QString::fromStdString(run.name);
            }
        } else {
            times = store_.rankTimes(run_id);
            for (const auto& run : store_.runs(shown_session_))
                if (run.id == run_id) name = QString::fromStdString(run.name);
        }
        rank_times_->setRankTimes(times);
        stragglers_heading_->setText(times.empty()
                                         ? tr("Per-rank step times: none recorded for this run")
                                         : tr("Per-rank step times of %1 (steady-state means)").arg(name));
    } catch (const std::exception& error) {
        rank_times_->setRankTimes({});
        stragglers_heading_->setText(tr("cannot read per-rank times: %1").arg(errorText(error)));
    }
}

QAbstractItemModel* MainWindow::currentTable() const {
    const QString tab = tabs_->currentWidget()->property("tabName").toString();
    if (tab == QLatin1String("runsTab")) return results_;
    if (tab == QLatin1String("liveTab")) return shown_runs_;
    if (tab == QLatin1String("scalingTab")) return scaling_;
    if (tab == QLatin1String("breakdownTab")) return breakdown_;
    if (tab == QLatin1String("collectivesTab")) return collectives_view_->model();
    if (tab == QLatin1String("compareTab")) return comparison_view_->figuresModel();
    return nullptr;
}

bool MainWindow::exportCurrentTab(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    QString error;
    bool ok = false;
    if (suffix == QLatin1String("csv")) {
        QAbstractItemModel* table = currentTable();
        ok = table && saveModelCsv(*table, path, &error);
        if (!table) error = tr("this tab has no table");
    } else if (suffix == QLatin1String("svg")) {
        ok = saveWidgetSvg(*tabs_->currentWidget(), path, {}, &error);
    } else {
        ok = saveWidgetPng(*tabs_->currentWidget(), path, {}, &error);
    }
    status_text_->setText(ok ? tr("exported %1").arg(path) : tr("cannot export %1: %2").arg(path, error));
    return ok;
}

bool MainWindow::selectSession(std::int64_t session_id) {
    for (int row = 0; row < sessions_->rowCount(); ++row) {
        if (sessions_->sessionId(row) != session_id) continue;
        const QModelIndex index = session_filter_->mapFromSource(sessions_->index(row, 0));
        if (!index.isValid()) return false; // filtered out by the search
        session_view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                    QItemSelectionModel::Rows);
        session_view_->scrollTo(index);
        if (shown_session_ != session_id) showSession(row);
        return true;
    }
    return false;
}

void MainWindow::showSession(int row) {
    if (row < 0) {
        shown_session_ = 0;
        showResults({});
        rank_times_->setRankTimes({});
        return;
    }
    shown_session_ = sessions_->sessionId(row);
    if (!loadAnalysis()) return;
    showStragglers(0);
    if (shown_session_ == live_session_ && controller_ && controller_->busy()) {
        showRuns(live_runs_);
        return;
    }
    try {
        stored_runs_->loadStoredSession(store_, shown_session_);
        showRuns(stored_runs_);
    } catch (const std::exception& error) {
        status_text_->setText(tr("cannot read session: %1").arg(errorText(error)));
    }
}

bool MainWindow::loadAnalysis() {
    std::vector<RunResult> results;
    bool ok = true;
    try {
        results = loadSessionResults(store_, shown_session_);
    } catch (const std::exception& error) {
        status_text_->setText(tr("cannot read session: %1").arg(errorText(error)));
        ok = false; // every view is emptied rather than left showing another session
    }
    showResults(std::move(results));
    return ok;
}

void MainWindow::showResults(std::vector<RunResult> results) {
    scaling_->setPoints(sessionScaling(results));
    breakdown_->setResults(results);
    collectives_view_->setResults(results);
    results_->setResults(std::move(results));
}

void MainWindow::connectRunSelection() {
    connect(progress_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const auto rows = selectedRunRows();
        live_view_->setRows(rows);
        if (!rows.empty()) showStragglers(shown_runs_->runId(rows.front()));
    });
}

void MainWindow::showRuns(RunProgressModel* runs) {
    if (shown_runs_ == runs) return;
    shown_runs_ = runs;
    progress_view_->setModel(runs);
    connectRunSelection();      // the new model came with a new selection model
    live_view_->setModel(runs); // the live view follows whichever model the table shows
}

std::vector<int> MainWindow::selectedRunRows() const {
    std::vector<int> rows;
    for (const QModelIndex& index : progress_view_->selectionModel()->selectedRows())
        rows.push_back(index.row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

bool MainWindow::launchPlan(const RunPlan& plan, const QString& cluster) {
    if (!controller_) return false;
    if (!controller_->launch(plan, cluster)) {
        status_text_->setText(tr("a session is still running: wait for it or cancel it first"));
        return false;
    }
    status_text_->setText(tr("starting '%1' on %2...").arg(QString::fromStdString(plan.name), cluster));
    return true;
}

void MainWindow::openPlanFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open plan"), QString(), tr("scalebench plans (*.toml)"));
    if (path.isEmpty()) return;
    try {
        launchPlan(parsePlanFile(path.toStdString()), QStringLiteral("local"));
    } catch (const std::exception& error) {
        QMessageBox::warning(this, tr("Plan error"), errorText(error));
    }
}

void MainWindow::cancelSelectedRun() {
    if (!controller_) return;
    for (int row : selectedRunRows())
        if (shown_runs_ == live_runs_ && live_runs_->isActive(row))
            controller_->cancelRun(live_runs_->runId(row));
}

void MainWindow::resubmitSelectedRuns() {
    const auto rows = selectedRunRows();
    const SessionRow* session = sessions_->session(shown_session_);
    if (!controller_ || rows.empty() || !session) return;
    try {
        RunPlan plan = parsePlanText(session->plan_text, "session " + std::to_string(session->id));
        plan.source_text = session->plan_text;
        std::vector<RunSpec> chosen;
        for (const RunSpec& spec : expandPlan(plan))
            for (int row : rows)
                if (shown_runs_->runName(row).toStdString() == spec.name) chosen.push_back(spec);
        if (chosen.empty()) return;
        if (controller_->launch(plan, QString::fromStdString(session->cluster), chosen))
            status_text_->setText(tr("resubmitting %1 run(s) as a new session").arg(chosen.size()));
        else
            status_text_->setText(tr("a session is still running: wait for it or cancel it first"));
    } catch (const std::exception& error) {
        QMessageBox::warning(this, tr("Cannot resubmit"), errorText(error));
    }
}

void MainWindow::openSelectedRunLog() {
    const auto rows = selectedRunRows();
    if (!controller_ || rows.empty()) return;
    const QString dir = shown_runs_->runDir(rows.front());
    if (dir.isEmpty()) {
        status_text_->setText(tr("the run has not started: no log yet"));
        return;
    }
    const SessionRow* session = sessions_->session(shown_session_);
    controller_->fetchText(session ? QString::fromStdString(session->cluster) : QStringLiteral("local"),
                           {dir + QStringLiteral("/stderr.log"), dir + QStringLiteral("/stdout.log")});
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
