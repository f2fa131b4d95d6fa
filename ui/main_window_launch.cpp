// The main window's sessions that run: plans opened and launched through the SessionController, the running
// session cancelled, and the controller's signals followed in the Runs tab, the progress bar and the status
// line.
#include "cluster_settings.h"
#include "install_layout.h"
#include "main_window.h"
#include "plan_builder_widget.h"
#include "run_progress_model.h"
#include "session_browser.h"
#include "session_cancel_question.h"
#include "session_controller.h"
#include "stored_session_loader.h"

#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <exception>

namespace scalebench {

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
            [this](qint64 run_id, RunStatus status, const QString& error) {
                live_runs_->runFinished(run_id, status, error);
                session_progress_->setValue(++runs_finished_);
                // The finished run's figures join the tables and charts.
                if (shown_session_ == live_session_) loader_->loadSession(shown_session_);
            });
    connect(controller_, &SessionController::sessionFinished, this,
            [this](qint64 session_id, int runs, int failed, SessionStatus status) {
                session_progress_->hide();
                if (status == SessionStatus::Cancelled)
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

} // namespace scalebench
