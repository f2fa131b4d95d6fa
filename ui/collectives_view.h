// Collective sweeps at a glance: the bandwidth chart with a busbw/algbw switch above the table of every size.
#pragma once

#include "collectives_chart_view.h"
#include "results_table.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QTableView;

namespace scalebench {

class CollectivesModel;

class CollectivesView : public QWidget {
    Q_OBJECT

  public:
    explicit CollectivesView(QWidget* parent = nullptr);

    // Replace what is shown, in one model reset.
    void setRecords(std::vector<CollectiveRecord> records);
    void setResults(const std::vector<RunResult>& results);

    CollectivesModel* model() const { return model_; }
    CollectivesChartView* chartView() const { return chart_; }
    QTableView* tableView() const { return table_; }
    QComboBox* bandwidthChoice() const { return bandwidth_; }

  private:
    CollectivesModel* model_;
    CollectivesChartView* chart_;
    QTableView* table_;
    QComboBox* bandwidth_;
};

} // namespace scalebench
