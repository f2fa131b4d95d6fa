// Two sessions compared: the figures table (change coloured better or worse) above the settings that differ
// and what differs in what their runs ran (their capsules).
#pragma once

#include "session_comparison.h"
#include "table_export.h"

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

    // Computes compareFigures, compareSettings and compareCapsules and shows them (one reset of each model).
    void setSessions(const ComparedSession& a, const ComparedSession& b);

    ComparisonModel* figuresModel() const { return figures_; }
    SettingsDiffModel* settingsModel() const { return settings_; }
    QTableView* figuresTable() const { return figures_view_; }
    QTableView* settingsTable() const { return settings_view_; }
    SettingsDiffModel* capsulesModel() const { return capsules_; }
    QTableView* capsulesTable() const { return capsules_view_; }
    QLabel* heading() const { return heading_; }
    // The three tables whole, as shown (the figures' shown columns), with their headings: what File > Export
    // draws as PNG or SVG (saveTablesPng).
    std::vector<ExportedTable> exportedTables() const;

  private:
    ComparisonModel* figures_;
    SettingsDiffModel* settings_;
    SettingsDiffModel* capsules_;
    QLabel* heading_;
    QLabel* settings_heading_;
    QLabel* capsules_heading_;
    QTableView* figures_view_;
    QTableView* settings_view_;
    QTableView* capsules_view_;
};

} // namespace scalebench
