// Each gradient bucket's all-reduce as the engine timed it against the sweep's time for its size at the same
// rank count (checkBuckets), one row per measured rank count and bucket, with the ratio measured / predicted.
#pragma once

#include "session_projection.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class BucketCheckModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Ranks, Bucket, Size, MeasuredMs, PredictedMs, Basis, Ratio, ColumnCount };

    explicit BucketCheckModel(QObject* parent = nullptr);

    // Replaces all rows in one reset.
    void setChecks(std::vector<BucketCheck> checks);
    const std::vector<BucketCheck>& checks() const { return checks_; }

    // Decimal units: "298.5 KB", "4.19 MB", "512 B".
    static QString sizeText(double bytes);
    // How the predicted time was had: "interpolated" (the sweep's own times at this rank count) or
    // "modelled ±24 %" (the cost model, with its band's half-width).
    static QString basisText(const CommPrediction& predicted);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text as shown (times in ms, 3 decimals; the ratio as "35.50x"); Qt::UserRole: the raw
    // number (ranks, bucket, bytes, ms, the band's half-width as a fraction (0 interpolated), the ratio);
    // Qt::ToolTipRole on the header and the cells: what the column means.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<BucketCheck> checks_;
};

} // namespace scalebench
