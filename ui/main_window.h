// The console's main window: stored sessions on the left; the chosen session's runs, live charts and analysis
// in tabs; plans launched through the SessionController (the same runner as --batch). Stored sessions are
// read by a StoredSessionLoader on its worker thread; the window shows what it hands over.
#pragma once

#include "projection_report.h"
#include "results_table.h"
#include "run_capsule.h"
#include "run_plan.h"

#include <QMainWindow>
#include <cstdint>
#include <functional>
#include <optional>

class QLabel;
class QProgressBar;
class QAbstractItemModel;
class QTabWidget;
class QTimer;

namespace scalebench {

class BreakdownModel;
class BreakdownTab;
class ClustersWidget;
class CollectivesView;
class CompareTab;
class ComparisonView;
class LiveView;
class PlanBuilderWidget;
class RankTimesModel;
class RunProgressModel;
class RunsTab;
class ScalingModel;
class ScalingTab;
class SessionBrowser;
class SessionController;
class SessionStore;
struct ImportRequest;
struct StoreAddress;
struct StoredDeletion;
struct StoredImport;
class StoredSessionLoader;
struct StoredClusterList;
struct StoredSession;
struct StoredSessionList;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    // The store is not owned and must outlive the window; the window reads the same file through its own
    // loader. Without a controller the window only browses.
    explicit MainWindow(SessionStore& store, SessionController* controller = nullptr,
                        QWidget* parent = nullptr);

    // Asks for the sessions again; when they arrive, the newest one is selected.
    void reload();
    // Grabs the window as it is laid out to a PNG file; false when grabbing or saving fails.
    bool saveScreenshot(const QString& path);
    // Starts the plan through the controller; false (with a message) when a session is still running.
    bool launchPlan(const RunPlan& plan, const QString& cluster);
    // File > Open and launch plan's work after the file dialog: reads the plan, asks once whether to launch
    // it where the Plan tab's Launch button launches ("Launch NAME (N runs) on prod?"), then launches it;
    // false when the plan cannot be read, the answer is no, or a session is still running.
    bool openAndLaunchPlan(const QString& path);
    // How that question is asked: a Yes/No message box unless set otherwise.
    void setLaunchQuestion(std::function<bool(const QString& question)> ask) { ask_launch_ = std::move(ask); }
    // The first-start panel's quickstart: the shipped quickstart.toml (ownExamplePlans) read and launched as
    // File > Open and launch plan launches, on this machine, without a question; false as openAndLaunchPlan.
    bool launchQuickstart();
    // Cancel session and Session > Cancel running session (Ctrl+.): asks once, naming the running session
    // and how many of its runs are running or pending (sessionCancelQuestion), and cancels it on yes; false
    // when no session runs or the answer is no.
    bool cancelRunningSession();
    // How that question is asked: a Yes/No message box, No by default, unless set otherwise.
    void setCancelQuestion(std::function<bool(const QString& question)> ask) { ask_cancel_ = std::move(ask); }
    // Shows the tab with this object name ("runsTab", "liveTab", "scalingTab", ...); "projectionTab" is the
    // Scaling tab on its Projection page.
    void showTab(const QString& object_name);
    // Selects the listed session with this id (its figures follow from the loader); false when not listed.
    bool selectSession(std::int64_t session_id);

    StoredSessionLoader* storedSessions() const { return loader_; }
    RunProgressModel* liveRuns() const { return live_runs_; }
    RunProgressModel* shownRuns() const { return shown_runs_; }
    LiveView* liveView() const { return live_view_; }
    ScalingModel* scalingModel() const;
    BreakdownModel* breakdownModel() const;
    RankTimesModel* rankTimesModel() const;
    CollectivesView* collectivesView() const { return collectives_view_; }
    ComparisonView* comparisonView() const;
    PlanBuilderWidget* planBuilder() const { return plan_builder_; }
    ClustersWidget* clustersView() const { return clusters_view_; }
    // Asks for two listed sessions in the Compare tab (A is the reference); false when one is not listed.
    bool compareSessions(std::int64_t a, std::int64_t b);
    // Writes the current tab as PNG or SVG (by the file's suffix), or its table as CSV; false with a message.
    // Compare's and Runs' PNG and SVG draw their tables whole (table_export.h); Compare's CSV is the figures
    // with both sessions named, and the settings that differ go to a file beside it, NAME-settings.csv. CSVs
    // hold plain numbers with units in the headers and the session (and for Scaling the series) on every
    // line.
    bool exportCurrentTab(const QString& path);
    // The file name an export dialog suggests for the current tab, or for `what` ("report", "window"):
    // "session-12-scaling-2026-11-26.png", "session-11-vs-12-compare-2026-11-26.csv" (exportFileName).
    QString suggestedExportName(const QString& suffix, const QString& what = {}) const;
    std::int64_t shownSessionId() const { return shown_session_; }
    // File > Export report's work: the shown stored session as one HTML page (session_report.h); false with a
    // message when none is shown or the file cannot be written.
    bool exportReport(const QString& path);
    // File > Import's work: the logs read into a new session of the window's store on the loader's thread,
    // the session then listed and shown; a file that gives nothing is named in a message. Answers with
    // logsImported.
    void importLogs(const ImportRequest& request);
    // Session > Delete session's work, once asked: the session, its runs and their records deleted on the
    // loader's thread (a running one is refused), the list then read again. Answers with sessionDeleted.
    void deleteSession(std::int64_t session_id);

  signals:
    // Every tab shows the stored session the loader read (or the error reading it). The Runs tab shows it a
    // turn of the event loop earlier: the other tabs follow in the next (showOtherTabs).
    void sessionShown(std::int64_t session_id);
    // An import asked for by importLogs is done: its session's id, 0 where none could be made.
    void logsImported(std::int64_t session_id);
    // A deletion asked for by deleteSession is done: the session's id, and why it was not deleted ("" when it
    // was).
    void sessionDeleted(std::int64_t session_id, const QString& error);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    MainWindow(const StoreAddress& store, SessionController* controller, QWidget* parent);
    void buildTabs(const StoreAddress& store);
    void showImport(const StoredImport& import);
    void buildStatusBar();
    void buildActions();
    void connectLoader();
    void connectController();
    void listSessions(std::int64_t keep); // then selects `keep` when listed, else the newest
    void showSessionList(const StoredSessionList& list);
    void showSession(std::int64_t session_id); // 0: none; asks the loader for its runs and figures
    void showStoredSession(const StoredSession& session);
    void showClusters(const StoredClusterList& clusters);
    void showOtherTabs(); // the Scaling, Breakdown and Collectives tabs of the session the Runs tab shows
    void showResults(const std::vector<RunResult>& results);
    void showRuns(RunProgressModel* runs);
    void openPlanFile();
    std::optional<RunPlan> readPlan(const QString& path); // std::nullopt after saying why in a message box
    void askImportLogs();    // File > Import logs...: the dialog, then importLogs
    void askDeleteSession(); // Session > Delete session...: which, its runs, asked; then deleteSession
    void showDeletion(const StoredDeletion& deletion);
    void addTab(QWidget* page, const QString& object_name, const QString& title);
    QAbstractItemModel* currentTable() const;

    SessionController* controller_;
    StoredSessionLoader* loader_;
    RunProgressModel* live_runs_;   // the session this window is running
    RunProgressModel* stored_runs_; // a session chosen from the list
    RunProgressModel* shown_runs_;  // one of the two
    QString store_file_;            // for the status line
    std::int64_t live_session_ = 0;
    std::int64_t shown_session_ = 0;
    std::int64_t keep_after_list_ = 0; // the session to select when the asked list arrives; 0: the newest
    // The last stored session loaded and its results, for File > Export report.
    std::int64_t results_session_ = 0;
    std::vector<RunResult> shown_results_;
    std::vector<RunCapsule> shown_capsules_; // what the shown session's runs ran (File > Export report)
    ReportProjection shown_projection_;      // its model inputs, for the report's Projection section
    std::int64_t stragglers_for_ = 0;        // the session whose next load picks the stragglers' run afresh
    QTimer* other_tabs_;                     // 0 ms: showOtherTabs, after the event loop's next turn

    SessionBrowser* browser_;
    QTabWidget* tabs_;
    PlanBuilderWidget* plan_builder_;
    RunsTab* runs_tab_;
    LiveView* live_view_;
    ScalingTab* scaling_tab_;
    BreakdownTab* breakdown_tab_;
    CollectivesView* collectives_view_;
    CompareTab* compare_tab_;
    ClustersWidget* clusters_view_;
    QProgressBar* session_progress_;
    QLabel* status_text_ = nullptr;
    std::function<bool(const QString&)> ask_launch_;
    std::function<bool(const QString&)> ask_cancel_;
    int runs_finished_ = 0;
};

} // namespace scalebench
