// What the Runs tab shows while the store holds no session: the four ways to a first result (the shipped
// quickstart plan run on this machine at once, a plan opened and launched, a cluster added, logs imported).
#pragma once

#include <QWidget>

class QPushButton;

namespace scalebench {

class FirstStartPanel : public QWidget {
    Q_OBJECT

  public:
    explicit FirstStartPanel(QWidget* parent = nullptr);

    // Whether the actions that launch (the quickstart, a plan) can: not in a window that only browses.
    void setLaunchEnabled(bool enabled);

  signals:
    void quickstartRequested();
    void openPlanRequested();
    void addClusterRequested();
    void importLogsRequested();

  private:
    QPushButton* quickstart_;
    QPushButton* open_plan_;
};

} // namespace scalebench
