// Bandwidth against message size from a CollectivesModel: one line per tool, backend, collective, type, op,
// placement and rank count, sizes on a log2 scale labelled in bytes (B, KiB, MiB, ...).
#pragma once

#include <QChartView>
#include <vector>

class QCategoryAxis;
class QLineSeries;
class QValueAxis;

namespace scalebench {

class CollectivesModel;

class CollectivesChartView : public QChartView {
    Q_OBJECT

  public:
    enum class Bandwidth { Bus, Algorithm }; // busbw or algbw (nccl-tests' definitions)

    // The model is not owned and must outlive the view; the chart follows its resets.
    explicit CollectivesChartView(CollectivesModel* model, QWidget* parent = nullptr);

    void setBandwidth(Bandwidth bandwidth);
    Bandwidth bandwidth() const { return bandwidth_; }

    // Points are (log2(bytes), GB/s), in size order; one series per sweep, in the order sweeps first appear.
    const std::vector<QLineSeries*>& sweepSeries() const { return series_; }
    // Labels sit at log2 positions of powers of two: "1 KiB" at 10.
    QCategoryAxis* sizeAxis() const { return x_axis_; }
    QValueAxis* bandwidthAxis() const { return y_axis_; }

  private:
    void refresh();

    CollectivesModel* model_;
    Bandwidth bandwidth_ = Bandwidth::Bus;
    std::vector<QLineSeries*> series_;
    QCategoryAxis* x_axis_;
    QValueAxis* y_axis_;
};

} // namespace scalebench
