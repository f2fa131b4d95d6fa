// Throughput scaling of one workload and dataset as a table for the chart to map, one row per rank count.
#pragma once

#include "analysis.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class ScalingModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // Ideal = X(N0) * N / N0, N0 the smallest rank count; Efficiency in percent. SpeedupTwoSigma =
    // 2 stddev(X(N)) / mean(X(N0)) (the speedup's error bar); IdealSpeedup = N / N0; EfficiencyTwoSigma =
    // SpeedupTwoSigma * N0 / N in percent.
    enum Column {
        Ranks,
        SamplesPerS,
        TwoSigma,
        IdealSamplesPerS,
        Speedup,
        Efficiency,
        SpeedupTwoSigma,
        IdealSpeedup,
        EfficiencyTwoSigma,
        ColumnCount
    };

    explicit ScalingModel(QObject* parent = nullptr);

    // Keeps the first workload/dataset series of the points, sorted by rank count; replaces all rows in one
    // reset.
    void setPoints(std::vector<ScalingPoint> points);
    const std::vector<ScalingPoint>& points() const { return points_; }
    QString workload() const;
    QString dataset() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Numbers as double for Qt::DisplayRole (what QVXYModelMapper reads).
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<ScalingPoint> points_;
};

} // namespace scalebench
