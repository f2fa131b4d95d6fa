// The Runs tab: the shown session's runs with state and progress, their finished figures, and the actions on
// selected runs (cancel, resubmit as a new session, open the logs) through the SessionController.
#include "runs_tab.h"

#include "cluster_settings.h"
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
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace scalebench {

RunsTab::RunsTab(SessionController* controller, RunProgressModel* runs, QWidget* parent)
    : QWidget(parent), controller_(controller), runs_(runs), results_(new RunTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* actions = new QHBoxLayout;
    auto button = [&](const QString& name, const QString& text, const QString& tip) {
        auto* b = new QPushButton(text, this);
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
    layout->addLayout(actions);
    auto* split = new QSplitter(Qt::Vertical, this);
    progress_view_ = makeRecordTable(runs_, QStringLiteral("progressTable"), split);
    progress_view_->setItemDelegateForColumn(RunProgressModel::Progress,
                                             new ProgressDelegate(progress_view_));
    results_view_ = makeRecordTable(results_, QStringLiteral("runTable"), split);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

    connectRunSelection();
    connect(runs_, &QAbstractItemModel::modelReset, this, &RunsTab::fitColumns, Qt::UniqueConnection);
    connect(results_, &QAbstractItemModel::modelReset, results_view_, &QTableView::resizeColumnsToContents);
    connect(cancel_run, &QPushButton::clicked, this, &RunsTab::cancelSelectedRuns);
    connect(cancel_all, &QPushButton::clicked, this, [this] {
        if (controller_ && controller_->busy()) {
            controller_->cancelSession();
            emit statusMessage(tr("cancelling the session's runs..."));
        }
    });
    connect(resubmit, &QPushButton::clicked, this, &RunsTab::resubmitSelectedRuns);
    connect(open_log, &QPushButton::clicked, this, &RunsTab::openSelectedRunLog);
    if (controller_) connect(controller_, &SessionController::textFetched, this, &RunsTab::showLog);
    if (controller_)
        launch_ = [this](const RunPlan& plan, const QString& cluster, const std::vector<RunSpec>& runs) {
            return controller_->launch(plan, cluster, runs);
        };
    ask_exclude_ = [this](const QString& question) {
        return QMessageBox::question(this, tr("Exclude slow nodes"), question,
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::Yes) == QMessageBox::Yes;
    };
}

void RunsTab::setLaunch(Launch launch) {
    launch_ = std::move(launch);
}

void RunsTab::setExcludeQuestion(std::function<bool(const QString&)> ask) {
    ask_exclude_ = std::move(ask);
}

void RunsTab::showRuns(RunProgressModel* runs, bool live) {
    live_ = live;
    if (runs_ == runs) return;
    runs_ = runs;
    progress_view_->setModel(runs);
    connect(runs_, &QAbstractItemModel::modelReset, this, &RunsTab::fitColumns, Qt::UniqueConnection);
    connectRunSelection();
}

void RunsTab::setSession(std::optional<SessionRow> session) {
    session_ = std::move(session);
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
    connect(progress_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit runsSelected(selectedRows()); });
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
    try {
        RunPlan plan = parsePlanText(session_->plan_text, "session " + std::to_string(session_->id));
        plan.source_text = session_->plan_text;
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

void RunsTab::openSelectedRunLog() {
    const auto rows = selectedRows();
    if (!controller_ || rows.empty()) return;
    const QString dir = runs_->runDir(rows.front());
    if (dir.isEmpty()) {
        emit statusMessage(tr("the run has not started: no log yet"));
        return;
    }
    controller_->fetchText(session_ ? QString::fromStdString(session_->cluster) : QStringLiteral("local"),
                           {dir + QStringLiteral("/stderr.log"), dir + QStringLiteral("/stdout.log")});
}

void RunsTab::showLog(const QString& path, const QString& text, const QString& error) {
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
}

} // namespace scalebench
