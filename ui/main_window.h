// The console's main window: sessions on the left, the chosen session's scaling chart and runs on the right.
#pragma once

#include <QMainWindow>
#include <cstdint>

class QTableView;

namespace scalebench {

class RunTableModel;
class ScalingChartView;
class ScalingModel;
class SessionListModel;
class SessionStore;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    // The store is not owned and must outlive the window.
    explicit MainWindow(SessionStore& store, QWidget* parent = nullptr);

    // Re-reads the sessions from the store and selects the newest one.
    void reload();
    // Grabs the window as it is laid out to a PNG file; false when grabbing or saving fails.
    bool saveScreenshot(const QString& path);

  private:
    void showSession(int row); // loads the session's results into the chart and the run table

    SessionStore& store_;
    SessionListModel* sessions_;
    ScalingModel* scaling_;
    RunTableModel* runs_;
    QTableView* session_view_;
    ScalingChartView* chart_view_;
    QTableView* run_view_;
};

} // namespace scalebench
