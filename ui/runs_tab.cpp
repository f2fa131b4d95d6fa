// The Runs tab: the shown session's runs with state and progress, their finished figures, and the actions on
// selected runs (cancel, resubmit as a new session, open the logs) through the SessionController, each
// enabled only while there is something it applies to; while the store holds no session, the first-start
// panel.
#include "runs_tab.h"

#include "cluster_settings.h"
#include "first_start_panel.h"
#include "progress_delegate.h"
#include "record_table.h"
#include "run_plan.h"
#include "run_progress_model.h"
#include "run_table_model.h"
#include "session_controller.h"
#include "slow_node_exclusion.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <filesystem>
#include <utility>

namespace scalebench {

RunsTab::RunsTab(SessionController* controller, RunProgressModel* runs, QWidget* parent)
    : QWidget(parent), controller_(controller), runs_(runs), results_(new RunTableModel(this)) {
    pages_ = new QStackedWidget(this);
    auto* outer = new QVBoxLayout(this);
    outer->addWidget(pages_);
    runs_page_ = new QWidget(pages_);
    first_start_ = new FirstStartPanel(pages_);
    pages_->addWidget(runs_page_);
    pages_->addWidget(first_start_);
    auto* layout = new QVBoxLayout(runs_page_);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* actions = new QHBoxLayout;
    auto button = [&](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, runs_page_);
        b->setObjectName(name);
        b->setToolTip(tip);
        actions->addWidget(b);
        return b;
    };
    cancel_run_ = button(QStringLiteral("cancelRun"), tr("Cancel run"), tr("Cancel the selected runs' jobs"));
    cancel_session_ = button(QStringLiteral("cancelSession"), tr("Cancel session"),
                             tr("Cancel every run of the running session (asked first)"));
    resubmit_ = button(QStringLiteral("resubmit"), tr("Resubmit"),
                       tr("Run the selected runs again, with the same plan and cluster, as a new session"));
    open_log_ = button(QStringLiteral("openLog"), tr("Open log"),
                       tr("Show the selected run's stdout.log and stderr.log"));
    actions->addStretch(1);
    layout->addLayout(actions);
    auto* split = new QSplitter(Qt::Vertical, runs_page_);
    progress_view_ = makeRecordTable(runs_, QStringLiteral("progressTable"), split);
    progress_view_->setItemDelegateForColumn(RunProgressModel::Progress,
                                             new ProgressDelegate(progress_view_));
    // Short columns follow their text as it changes ("pending" to "running", an ETA appearing): never
    // "ru...".
    for (const int column : {RunProgressModel::Ranks, RunProgressModel::State, RunProgressModel::Eta,
                             RunProgressModel::SamplesPerS})
        progress_view_->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    results_view_ = makeRecordTable(results_, QStringLiteral("runTable"), split);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

    connectRunSelection();
    connect(results_, &QAbstractItemModel::modelReset, results_view_, &QTableView::resizeColumnsToContents);
    connect(cancel_run_, &QPushButton::clicked, this, &RunsTab::cancelSelectedRuns);
    connect(cancel_session_, &QPushButton::clicked, this, &RunsTab::sessionCancelRequested);
    connect(resubmit_, &QPushButton::clicked, this, &RunsTab::resubmitSelectedRuns);
    connect(open_log_, &QPushButton::clicked, this, &RunsTab::openSelectedRunLog);
    if (controller_) {
        connect(controller_, &SessionController::textFetched, this, &RunsTab::showLog);
        launch_ = [this](const RunPlan& plan, const QString& cluster, const std::vector<RunSpec>& chosen) {
            return controller_->launch(plan, cluster, chosen);
        };
        // The running session ended (or never started): its cancel actions no longer apply.
        connect(controller_, &SessionController::sessionFinished, this, &RunsTab::enableActions);
        connect(controller_, &SessionController::sessionFailed, this, &RunsTab::enableActions);
    }
    ask_exclude_ = [this](const QString& question) {
        return QMessageBox::question(this, tr("Exclude slow nodes"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::Yes) == QMessageBox::Yes;
    };
    enableActions();
}

void RunsTab::setLaunch(Launch launch) {
    launch_ = std::move(launch);
    enableActions();
}

void RunsTab::setExcludeQuestion(std::function<bool(const QString&)> ask) {
    ask_exclude_ = std::move(ask);
}

void RunsTab::showRuns(RunProgressModel* runs, bool live) {
    live_ = live;
    if (runs_ != runs) {
        runs_ = runs;
        progress_view_->setModel(runs);
        connectRunSelection();
    }
    enableActions();
}

void RunsTab::setSession(std::optional<SessionRow> session) {
    session_ = std::move(session);
    enableActions();
}

void RunsTab::setStoreEmpty(bool empty) {
    pages_->setCurrentWidget(empty ? static_cast<QWidget*>(first_start_) : runs_page_);
}

void RunsTab::setResults(std::vector<RunResult> results) {
    slow_nodes_ = slowNodesOf(results);
    // Each run's cost at the price of the session's cluster; no Cost column without one.
    const GpuHourPrice price = session_ ? sessionPrice(*session_) : GpuHourPrice{};
    const bool priced = price.per_gpu_hour > 0;
    results_->setResults(std::move(results), price);
    results_view_->setColumnHidden(RunTableModel::Cost, !priced);
}

void RunsTab::connectRunSelection() {
    connect(progress_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        enableActions();
        emit runsSelected(selectedRows());
    });
    // A run's state changes what applies to it (a run that ended can no longer be cancelled).
    connect(runs_, &QAbstractItemModel::modelReset, this, &RunsTab::fitColumns, Qt::UniqueConnection);
    connect(runs_, &QAbstractItemModel::modelReset, this, &RunsTab::enableActions, Qt::UniqueConnection);
    connect(runs_, &QAbstractItemModel::dataChanged, this, &RunsTab::enableActions, Qt::UniqueConnection);
}

void RunsTab::enableActions() {
    const std::vector<int> rows = selectedRows();
    const bool running = live_ && controller_ && controller_->busy();
    cancel_run_->setEnabled(
        running && std::any_of(rows.begin(), rows.end(), [this](int row) { return runs_->isActive(row); }));
    cancel_session_->setEnabled(running);
    resubmit_->setEnabled(!rows.empty() && session_ && launch_);
    open_log_->setEnabled(!rows.empty() && controller_);
}

void RunsTab::fitColumns() {
    progress_view_->resizeColumnsToContents();
    progress_view_->setColumnWidth(RunProgressModel::Progress, 160);
}

std::vector<int> RunsTab::selectedRows() const {
    std::vector<int> rows;
    for (const QModelIndex& index : progress_view_->selectionModel()->selectedRows())
        rows.push_back(index.row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void RunsTab::cancelSelectedRuns() {
    if (!controller_ || !live_) return;
    for (int row : selectedRows())
        if (runs_->isActive(row)) controller_->cancelRun(runs_->runId(row));
}

void RunsTab::resubmitSelectedRuns() {
    const auto rows = selectedRows();
    if (!launch_ || rows.empty() || !session_) return;
    if (!session_->stored_plan.plan) {
        QMessageBox::warning(this, tr("Cannot resubmit"),
                             QString::fromStdString(session_->stored_plan.problem.empty()
                                                        ? "session " + std::to_string(session_->id) +
                                                              " stored no plan to run again (imported runs)"
                                                        : session_->stored_plan.problem));
        return;
    }
    try {
        RunPlan plan = *session_->stored_plan.plan;
        // Slow nodes flagged in the session: on Slurm the new session can ask to be kept off them.
        const bool on_slurm = !session_->cluster.empty() && session_->cluster != kLocalClusterName;
        if (on_slurm && !slow_nodes_.empty()) {
            QStringList nodes;
            for (const std::string& node : slow_nodes_)
                nodes << QString::fromStdString(node);
            if (ask_exclude_(tr("Exclude the slow node(s) %1 flagged in this session (sbatch --exclude)?")
                                 .arg(nodes.join(QStringLiteral(", ")))))
                plan = withExcludedNodes(plan, slow_nodes_);
        }
        std::vector<RunSpec> chosen;
        for (const RunSpec& spec : expandPlan(plan))
            for (int row : rows)
                if (runs_->runName(row).toStdString() == spec.name) chosen.push_back(spec);
        if (chosen.empty()) return;
        if (launch_(plan, QString::fromStdString(session_->cluster), chosen))
            emit statusMessage(tr("resubmitting %1 run(s) as a new session").arg(chosen.size()));
        else
            emit statusMessage(tr("a session is still running: wait for it or cancel it first"));
    } catch (const std::exception& error) {
        QMessageBox::warning(this, tr("Cannot resubmit"), QString::fromLocal8Bit(error.what()));
    }
}

namespace {

// Where a run folder stored relative (by sessions before run folders were stored absolute) may be on this
// machine: against the working folder, the store's folder and the folder above it (`make quickstart` stored
// out/quickstart/... beside out/scalebench.db). The first that exists, and every path tried.
std::pair<std::optional<std::filesystem::path>, std::vector<std::filesystem::path>>
localRunFolder(const std::filesystem::path& stored, const std::filesystem::path& store_file) {
    namespace fs = std::filesystem;
    std::error_code ignored;
    if (stored.is_absolute()) return {stored, {stored}};
    const fs::path store_folder = fs::absolute(store_file, ignored).parent_path();
    std::vector<fs::path> tried{fs::absolute(stored, ignored), store_folder / stored};
    if (store_folder.has_parent_path() && store_folder.parent_path() != store_folder)
        tried.push_back(store_folder.parent_path() / stored);
    for (const fs::path& candidate : tried)
        if (fs::is_directory(candidate, ignored)) return {candidate.lexically_normal(), tried};
    return {std::nullopt, tried};
}

} // namespace

void RunsTab::openSelectedRunLog() {
    const auto rows = selectedRows();
    if (!controller_ || rows.empty()) return;
    const QString stored = runs_->runDir(rows.front());
    if (stored.isEmpty()) {
        emit statusMessage(tr("the run has not started: no log yet"));
        return;
    }
    const QString cluster = session_ ? QString::fromStdString(session_->cluster) : QStringLiteral("local");
    const bool here = cluster.isEmpty() || cluster == QLatin1String(kLocalClusterName);
    QString dir = stored;
    QStringList tried;
    if (here) {
        const auto [found, paths] = localRunFolder(stored.toStdString(), controller_->options().db);
        if (found) dir = QString::fromStdString(found->string());
        if (!found)
            for (const auto& path : paths)
                tried << QString::fromStdString(path.string());
    }

    // One window for the run, its two logs as tabs, filled as each file arrives.
    if (log_dialog_) log_dialog_->close();
    auto* dialog = new QDialog(this);
    log_dialog_ = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("logDialog"));
    dialog->setWindowTitle(tr("Logs of %1 (%2)").arg(runs_->runName(rows.front()), dir));
    auto* layout = new QVBoxLayout(dialog);
    auto* tabs = new QTabWidget(dialog);
    tabs->setObjectName(QStringLiteral("logTabs"));
    layout->addWidget(tabs);
    pending_logs_.clear();
    for (const QString& file : {QStringLiteral("stdout.log"), QStringLiteral("stderr.log")}) {
        auto* view = new QPlainTextEdit(tabs);
        view->setObjectName(file == QLatin1String("stdout.log") ? QStringLiteral("stdoutLog")
                                                                : QStringLiteral("stderrLog"));
        view->setReadOnly(true);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
        view->setFont(QFont(QStringLiteral("monospace")));
        tabs->addTab(view, file);
        if (!tried.isEmpty()) { // nowhere to read it from: say where it was looked for
            QStringList paths;
            for (const QString& folder : tried)
                paths << folder + QLatin1Char('/') + file;
            view->setPlainText(
                tr("cannot read %1/%2: the run's folder was stored relative, and none of these "
                   "exists:\n%3")
                    .arg(stored, file, paths.join(QLatin1Char('\n'))));
            continue;
        }
        view->setPlainText(tr("reading %1/%2...").arg(dir, file));
        pending_logs_.insert(dir + QLatin1Char('/') + file, view);
    }
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(close);
    dialog->resize(900, 600);
    dialog->show();
    if (!pending_logs_.isEmpty()) controller_->fetchText(cluster, pending_logs_.keys());
}

void RunsTab::showLog(const QString& path, const QString& text, const QString& error) {
    QPlainTextEdit* view = log_dialog_ ? pending_logs_.value(path) : nullptr;
    if (!view) return; // a window closed since, or another run's
    const QString file = path.section(QLatin1Char('/'), -1);
    view->setPlainText(!error.isEmpty() ? tr("cannot read %1: %2").arg(path, error)
                       : text.isEmpty() ? tr("(empty: the run wrote nothing to %1)").arg(file)
                                        : text);
}

} // namespace scalebench
