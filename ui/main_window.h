// The console's main window: stored sessions on the left; the chosen session's runs, live charts and analysis
// in tabs; plans launched through the SessionController (the same runner as --batch).
#pragma once

#include "results_table.h"
#include "run_plan.h"

#include <QMainWindow>
#include <cstdint>

class QLabel;
class QLineEdit;
class QProgressBar;
class QAbstractItemModel;
class QComboBox;
class QTabWidget;
class QTableView;

namespace scalebench {

class BreakdownModel;
class ClustersWidget;
class PlanBuilderWidget;
class CollectivesView;
class ComparisonView;
class LiveView;
class RankTimesModel;
class SessionFilterModel;
class RunProgressModel;
class RunTableModel;
class ScalingChartView;
class ScalingModel;
class SessionController;
class SessionListModel;
class SessionStore;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    // The store is not owned and must outlive the window. Without a controller the window only browses.
    explicit MainWindow(SessionStore& store, SessionController* controller = nullptr,
                        QWidget* parent = nullptr);

    // Re-reads the sessions from the store and selects the newest one.
    void reload();
    // Grabs the window as it is laid out to a PNG file; false when grabbing or saving fails.
    bool saveScreenshot(const QString& path);
    // Starts the plan through the controller; false (with a message) when a session is still running.
    bool launchPlan(const RunPlan& plan, const QString& cluster);
    // Shows the tab with this object name ("runsTab", "liveTab", "scalingTab", ...).
    void showTab(const QString& object_name);
    // Selects the stored session with this id; false when it is not listed.
    bool selectSession(std::int64_t session_id);

    RunProgressModel* liveRuns() const { return live_runs_; }
    RunProgressModel* shownRuns() const { return shown_runs_; }
    LiveView* liveView() const { return live_view_; }
    ScalingModel* scalingModel() const { return scaling_; }
    BreakdownModel* breakdownModel() const { return breakdown_; }
    RankTimesModel* rankTimesModel() const { return rank_times_; }
    CollectivesView* collectivesView() const { return collectives_view_; }
    ComparisonView* comparisonView() const { return comparison_view_; }
    PlanBuilderWidget* planBuilder() const { return plan_builder_; }
    ClustersWidget* clustersView() const { return clusters_view_; }
    // Compares two stored sessions in the Compare tab (A is the reference); false when one is not stored.
    bool compareSessions(std::int64_t a, std::int64_t b);
    // Writes the current tab as PNG or SVG (by the file's suffix), or its table as CSV; false with a message.
    bool exportCurrentTab(const QString& path);
    std::int64_t shownSessionId() const { return shown_session_; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildActions();
    void connectController();
    void showSession(int row); // loads the session's results, runs and traces
    // The shown session's figures into the runs table, scaling, breakdown and collectives; false (views
    // emptied, message shown) when the store cannot be read.
    bool loadAnalysis();
    void showResults(std::vector<RunResult> results);
    void connectRunSelection(); // a selected run: overlaid in the live view, its per-rank times shown
    void showRuns(RunProgressModel* runs);
    void openPlanFile();
    void cancelSelectedRun();
    void resubmitSelectedRuns();
    void openSelectedRunLog();
    std::vector<int> selectedRunRows() const;
    void setBusy(bool busy, const QString& message);
    void addTab(QWidget* page, const QString& object_name, const QString& title);
    void showStragglers(std::int64_t run_id);
    void fillComparisonChoices();
    void listClusters(); // in the plan builder: this machine and the stored clusters
    QAbstractItemModel* currentTable() const;

    SessionStore& store_;
    SessionController* controller_;
    SessionListModel* sessions_;
    SessionFilterModel* session_filter_;
    ScalingModel* scaling_;
    RunTableModel* results_;
    RunProgressModel* live_runs_;   // the session this window is running
    RunProgressModel* stored_runs_; // a session chosen from the list
    RunProgressModel* shown_runs_;  // one of the two
    std::int64_t live_session_ = 0;
    std::int64_t shown_session_ = 0;

    QLineEdit* session_search_;
    QTableView* session_view_;
    QTabWidget* tabs_;
    QTableView* progress_view_;
    QTableView* results_view_;
    LiveView* live_view_;
    ScalingChartView* chart_view_;
    BreakdownModel* breakdown_;
    RankTimesModel* rank_times_;
    QLabel* stragglers_heading_;
    CollectivesView* collectives_view_;
    ComparisonView* comparison_view_;
    PlanBuilderWidget* plan_builder_;
    ClustersWidget* clusters_view_;
    QComboBox* compare_a_;
    QComboBox* compare_b_;
    QProgressBar* session_progress_;
    QLabel* status_text_ = nullptr;
    int runs_total_ = 0;
    int runs_finished_ = 0;
};

} // namespace scalebench
