// The Runs tab: the shown session's runs with state and progress, their finished figures, and the actions on
// selected runs (cancel, resubmit as a new session, open the logs) through the SessionController, each
// enabled only while there is something it applies to; while the store holds no session, the first-start
// panel.
#pragma once

#include "results_table.h"
#include "run_plan.h"
#include "stored_rows.h"

#include <QHash>
#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QDialog;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace scalebench {

class FirstStartPanel;
class RunProgressModel;
class RunTableModel;
class SessionController;

class RunsTab : public QWidget {
    Q_OBJECT

  public:
    // Without a controller the actions stay disabled (but resubmitting, where setLaunch gave it a way).
    // `runs` is shown first; not owned.
    RunsTab(SessionController* controller, RunProgressModel* runs, QWidget* parent = nullptr);

    // Follows another runs model (the running session's or a stored one's); live: its runs can be cancelled.
    void showRuns(RunProgressModel* runs, bool live);
    // The session the runs belong to (its plan and cluster, for resubmitting and reading logs).
    void setSession(std::optional<SessionRow> session);
    void setResults(std::vector<RunResult> results);
    RunTableModel* resultsModel() const { return results_; }
    // While the store holds no session the tab shows the first-start panel instead of the runs.
    void setStoreEmpty(bool empty);
    FirstStartPanel* firstStart() const { return first_start_; }
    std::vector<int> selectedRows() const; // in the runs model, ascending

    // Where resubmitted runs go (their plan, cluster and runs): the controller's launch unless set otherwise.
    using Launch =
        std::function<bool(const RunPlan& plan, const QString& cluster, const std::vector<RunSpec>& runs)>;
    void setLaunch(Launch launch);
    // Whether to keep resubmitted runs off the slow nodes the session's results flagged (asked only for a
    // session that ran on a Slurm cluster): a Yes/No message box, Yes by default, unless set otherwise.
    void setExcludeQuestion(std::function<bool(const QString& question)> ask);

  signals:
    void runsSelected(const std::vector<int>& rows);
    void statusMessage(const QString& text);
    // Cancel session was clicked (enabled while the running session is shown): the window asks first.
    void sessionCancelRequested();

  private:
    void connectRunSelection(); // again for each model: a new model comes with a new selection model
    void fitColumns();
    // Cancel run: a selected run still active in the running session; Cancel session: the running session
    // shown; Resubmit: selected runs and a session to take their plan from; Open log: a selected run.
    void enableActions();
    void cancelSelectedRuns();
    void resubmitSelectedRuns();
    // One window with the run's stdout.log and stderr.log as tabs, each filled when its text arrives.
    void openSelectedRunLog();
    void showLog(const QString& path, const QString& text, const QString& error);

    SessionController* controller_;
    RunProgressModel* runs_;
    bool live_ = false;
    std::optional<SessionRow> session_;
    std::vector<std::string> slow_nodes_; // flagged in the shown results
    Launch launch_;
    std::function<bool(const QString&)> ask_exclude_;
    RunTableModel* results_;
    QStackedWidget* pages_;
    QWidget* runs_page_;
    FirstStartPanel* first_start_;
    QPushButton* cancel_run_;
    QPushButton* cancel_session_;
    QPushButton* resubmit_;
    QPushButton* open_log_;
    QTableView* progress_view_;
    QTableView* results_view_;
    QPointer<QDialog> log_dialog_;                 // Open log's window, while it is open
    QHash<QString, QPlainTextEdit*> pending_logs_; // in that window: the tab of each file asked for
};

} // namespace scalebench
