// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency (and the
// time-to-target speedup where runs reached a target), for one series of the shown session's results at a
// time: runs that differ in any setting but their rank count are never charted as one series. Its Projection
// page shows the performance model's prediction for the same series out to a chosen rank count, and each
// gradient bucket's measured all-reduce against the sweep's time for its size.
#pragma once

#include "results_table.h"
#include "session_projection.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace scalebench {

class BucketCheckView;
class CostChartView;
class ProjectionChartView;
class ScalingModel;

class ScalingTab : public QWidget {
    Q_OBJECT

  public:
    explicit ScalingTab(QWidget* parent = nullptr);

    // Lists the results' series in the series choice (keeping the chosen one where it is still there) and
    // charts the chosen one.
    void setResults(const std::vector<RunResult>& results);
    // The session's model inputs, one per training series (matched to the series choice by label), or why
    // they could not be read; the Projection page shows the chosen series' projection.
    void setProjectionInputs(const std::vector<SeriesModelInputs>& inputs, const QString& error = {});
    void showProjectionPage();
    ScalingModel* model() const { return model_; }
    QComboBox* seriesChoice() const { return series_; }
    QComboBox* projectTo() const { return project_to_; }
    ProjectionChartView* projectionChart() const { return projection_chart_; }
    QPlainTextEdit* projectionTable() const { return projection_table_; }
    BucketCheckView* bucketChecks() const { return bucket_checks_; }
    // Cost to train: samples to train (0: none), the price per GPU-hour (the session's cluster's until
    // changed), a deadline in hours (0: none), the chart and the cheapest N for the deadline in words.
    QDoubleSpinBox* samplesToTrain() const { return samples_to_train_; }
    QDoubleSpinBox* pricePerGpuHour() const { return price_; }
    QDoubleSpinBox* deadlineHours() const { return deadline_; }
    CostChartView* costChart() const { return cost_chart_; }
    QLabel* cheapestText() const { return cheapest_; }

  private:
    void showSeries();
    void showProjection();
    QWidget* buildCostControls(QWidget* page);
    void showCost(const QString& label, const ModelInputs& inputs, const std::vector<Projection>& rows);

    ScalingModel* model_;
    QComboBox* series_;
    QTabWidget* pages_;
    QComboBox* project_to_;
    ProjectionChartView* projection_chart_;
    QPlainTextEdit* projection_table_;
    BucketCheckView* bucket_checks_;
    QDoubleSpinBox* samples_to_train_ = nullptr;
    QDoubleSpinBox* price_ = nullptr;
    QLabel* currency_ = nullptr;
    QDoubleSpinBox* deadline_ = nullptr;
    CostChartView* cost_chart_ = nullptr;
    QLabel* cheapest_ = nullptr;
    std::vector<ScalingPoint> points_;
    std::vector<SeriesModelInputs> projection_inputs_;
    QString projection_error_;
};

} // namespace scalebench
