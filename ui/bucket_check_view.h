// The Projection page's per-bucket check: one line reading the ratios (at the fabric's speed or not) above a
// table of each bucket's measured all-reduce against the sweep's time for its size; where there is nothing
// to check, the line says why in the table's place.
#pragma once

#include "session_projection.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace scalebench {

class BucketCheckModel;

class BucketCheckView : public QWidget {
    Q_OBJECT

  public:
    explicit BucketCheckView(QWidget* parent = nullptr);

    // The series' checks at every measured rank count, or why it has none.
    void showSeries(const SeriesModelInputs& series);
    // No series to check: `reason` stands in the table's place.
    void showReason(const QString& reason);

    BucketCheckModel* model() const { return model_; }
    QLabel* reading() const { return reading_; }
    QTableView* table() const { return table_; }

  private:
    BucketCheckModel* model_;
    QLabel* reading_;
    QTableView* table_;
};

} // namespace scalebench
