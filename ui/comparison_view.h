// Two sessions compared: the figures table (change coloured better or worse) above the settings that differ.
#pragma once

#include "session_comparison.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace scalebench {

class ComparisonModel;
class SettingsDiffModel;

class ComparisonView : public QWidget {
    Q_OBJECT

  public:
    explicit ComparisonView(QWidget* parent = nullptr);

    // Computes compareFigures and compareSettings and shows them (one reset of each model).
    void setSessions(const ComparedSession& a, const ComparedSession& b);

    ComparisonModel* figuresModel() const { return figures_; }
    SettingsDiffModel* settingsModel() const { return settings_; }
    QTableView* figuresTable() const { return figures_view_; }
    QTableView* settingsTable() const { return settings_view_; }
    QLabel* heading() const { return heading_; }

  private:
    ComparisonModel* figures_;
    SettingsDiffModel* settings_;
    QLabel* heading_;
    QLabel* settings_heading_;
    QTableView* figures_view_;
    QTableView* settings_view_;
};

} // namespace scalebench
