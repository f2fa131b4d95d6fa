// The live view: loss, throughput and the per-step time breakdown of the watched runs, against step or wall
// time, redrawn from the RunProgressModel at most every 100 ms. Each line is decimated to the plot's pixel
// columns (first, lowest, highest and last point of each: the same pixels as every point), kept up to date
// as records arrive, and painted by the chart's PlotLinesItem; Qt Charts draws axes, titles and legends.
#pragma once

#include "column_decimation.h"
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

class PlotLinesItem;

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

    // Rows of the model drawn (overlaid; the first ten); empty: the first ten runs that have records. The
    // first is the one whose breakdown is drawn.
    void setRows(const std::vector<int>& rows);
    // Follows another model (the window shows a stored session or the running one); not owned.
    void setModel(RunProgressModel* model);
    void setAgainstTime(bool against_time);
    // Reads the model and redraws every chart now (the model's tracesChanged calls this).
    void refresh();

    // For tests and benchmarks: points drawn by a chart's series ("loss", "throughput", "breakdown").
    int drawnPoints(const QString& chart) const;
    QChartView* chartView(const QString& chart) const;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    // A line to draw: its legend name and the run's series it shows.
    struct Line {
        QString name;
        int row = 0;
        RunProgressModel::Metric metric = RunProgressModel::Metric::Loss;
    };
    struct Panel {
        QString key;
        QChartView* view = nullptr;
        QValueAxis* x_axis = nullptr;
        QValueAxis* y_axis = nullptr;
        PlotLinesItem* lines = nullptr;
        std::vector<QLineSeries*> series; // no points: each line's legend entry
        std::vector<Line> drawn;          // what each decimation below is of
        std::vector<ColumnDecimation> decimations;
    };
    Panel makePanel(const QString& key, const QString& title, const QString& y_title);
    // One line per entry; reuses the panel's legend series and decimations, adds or removes as needed.
    void draw(Panel& panel, const std::vector<Line>& lines);
    // The legend: one empty series per line, named and coloured as it.
    void showLegend(Panel& panel, const std::vector<Line>& lines);
    std::vector<int> drawnRows() const;
    // Every decimation starts over (another model, the model was reset, the other x axis).
    void forgetDecimations();

    RunProgressModel* model_;
    QComboBox* x_choice_;
    std::vector<int> rows_;
    bool against_time_ = false;
    bool refresh_queued_ = false;
    Panel loss_, throughput_, breakdown_;
};

} // namespace scalebench
