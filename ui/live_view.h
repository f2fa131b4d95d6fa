// The live view: loss, throughput and the per-step time breakdown of the watched runs, against step or wall
// time, redrawn from the RunProgressModel at most every 100 ms with display decimation.
#pragma once

#include "run_progress_model.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLineSeries;
class QValueAxis;

namespace scalebench {

// Names for a legend of runs: what they all start with (whole '-'-separated words, empty for fewer than 2
// runs or nothing shared) and each name without it.
struct RunLegendNames {
    QString common;
    QStringList names;
};
RunLegendNames runLegendNames(const QStringList& names);

class LiveView : public QWidget {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view.
    explicit LiveView(RunProgressModel* model, QWidget* parent = nullptr);

    // Rows of the model drawn (overlaid); empty: every run that has records. The first is the one whose
    // breakdown is drawn.
    void setRows(const std::vector<int>& rows);
    // Follows another model (the window shows a stored session or the running one); not owned.
    void setModel(RunProgressModel* model);
    void setAgainstTime(bool against_time);
    // Reads the model and redraws every chart now (the model's tracesChanged calls this).
    void refresh();

    // For tests and benchmarks: points drawn by a chart's series ("loss", "throughput", "breakdown").
    int drawnPoints(const QString& chart) const;
    QChartView* chartView(const QString& chart) const;

  private:
    struct Panel {
        QString key;
        QChartView* view = nullptr;
        QValueAxis* x_axis = nullptr;
        QValueAxis* y_axis = nullptr;
        std::vector<QLineSeries*> series;
    };
    Panel makePanel(const QString& key, const QString& title, const QString& y_title);
    // One series per (label, points); reuses the panel's series, adds or removes as needed.
    void draw(Panel& panel, const std::vector<std::pair<QString, std::vector<SeriesPoint>>>& lines);
    std::vector<int> drawnRows() const;
    std::size_t buckets(const Panel& panel) const;

    RunProgressModel* model_;
    QComboBox* x_choice_;
    std::vector<int> rows_;
    bool against_time_ = false;
    Panel loss_, throughput_, breakdown_;
};

} // namespace scalebench
