// The step breakdown per rank count from a BreakdownModel: stacked bars that add up to the step time, and the
// hidden (overlapped) communication as its own bar beside each stack.
#include "breakdown_chart_view.h"

#include "breakdown_model.h"
#include "chart_style.h"
#include "figure_labels.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>

namespace scalebench {

namespace {

constexpr double kStackWidth = 0.5;  // in categories: a stack spans [i - 0.25, i + 0.25]
constexpr double kHiddenLeft = 0.28; // the hidden-communication bar spans [i + 0.28, i + 0.44]
constexpr double kHiddenRight = 0.44;
const QColor kHiddenColour(90, 90, 90);

} // namespace

BreakdownChartView::BreakdownChartView(BreakdownModel* model, QWidget* parent)
    : QChartView(parent), model_(model), stacks_(new QStackedBarSeries), x_axis_(new QBarCategoryAxis),
      y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart); // the view owns the chart, the chart owns series and axes
    setRenderHint(QPainter::Antialiasing);

    const std::vector<std::pair<int, QString>> parts = {
        {BreakdownModel::DataMs, tr("data")},
        {BreakdownModel::ForwardMs, figureLabel(Figure::Forward)},
        {BreakdownModel::BackwardMs, figureLabel(Figure::Backward)},
        {BreakdownModel::OptimizerMs, figureLabel(Figure::Optimizer)},
        {BreakdownModel::ExposedCommMs, tr("exposed comm.")}};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        auto* set = new QBarSet(parts[i].second);
        set->setColor(paletteColour(static_cast<int>(i)));
        set->setBorderColor(Qt::white);
        stacks_->append(set);
    }
    stacks_->setBarWidth(kStackWidth);

    x_axis_->setTitleText(tr("ranks (processes)"));
    y_axis_->setTitleText(tr("time per step (ms)"));
    y_axis_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    chart->addSeries(stacks_);
    stacks_->attachAxis(x_axis_);
    stacks_->attachAxis(y_axis_);

    connect(model_, &QAbstractItemModel::modelReset, this, &BreakdownChartView::refresh);
    connect(model_, &QAbstractItemModel::dataChanged, this, &BreakdownChartView::refresh);
    refresh();
}

void BreakdownChartView::refresh() {
    const int rows = model_->rowCount();
    chart()->setTitle(
        rows == 0 ? tr("No steady-state steps to break down")
                  : tr("%1: where a step's time goes (mean over repeats)").arg(model_->seriesLabel()));
    auto value = [&](int row, int column) { return model_->data(model_->index(row, column)).toDouble(); };

    const QList<QBarSet*> sets = stacks_->barSets();
    const int columns[] = {BreakdownModel::DataMs, BreakdownModel::ForwardMs, BreakdownModel::BackwardMs,
                           BreakdownModel::OptimizerMs, BreakdownModel::ExposedCommMs};
    for (int s = 0; s < sets.size(); ++s) {
        QList<qreal> values;
        for (int row = 0; row < rows; ++row)
            values.append(value(row, columns[s]));
        sets[s]->remove(0, sets[s]->count());
        sets[s]->append(values);
    }

    for (QAreaSeries* bar : hidden_) {
        chart()->removeSeries(bar);
        delete bar;
    }
    hidden_.clear();
    QStringList categories;
    double max_ms = 0;
    for (int row = 0; row < rows; ++row) {
        // The rank count, the share of the step spent waiting for communication and the speedup the step
        // would get with free communication (MLBench task 4's communication ratio and compute speedup, seed
        // 004).
        categories.append(tr("%1<br>comm %2%<br>compute-only %3x")
                              .arg(static_cast<int>(value(row, BreakdownModel::Ranks)))
                              .arg(value(row, BreakdownModel::CommunicationShare), 0, 'f', 0)
                              .arg(value(row, BreakdownModel::ComputeOnlySpeedup), 0, 'f', 2));
        const double hidden_ms = value(row, BreakdownModel::HiddenCommMs);
        double stacked = 0;
        for (int column : columns)
            stacked += value(row, column);
        max_ms = std::max({max_ms, stacked, value(row, BreakdownModel::StepMs), hidden_ms});

        // A bar drawn as an area between two lines on the category axis (categories sit at 0, 1, 2, ...).
        auto* upper = new QLineSeries;
        upper->append(row + kHiddenLeft, hidden_ms);
        upper->append(row + kHiddenRight, hidden_ms);
        auto* lower = new QLineSeries;
        lower->append(row + kHiddenLeft, 0);
        lower->append(row + kHiddenRight, 0);
        auto* bar = new QAreaSeries(upper, lower);
        upper->setParent(bar);
        lower->setParent(bar);
        bar->setName(tr("hidden comm. (beside)"));
        bar->setColor(kHiddenColour);
        bar->setBrush(QBrush(kHiddenColour, Qt::BDiagPattern));
        bar->setBorderColor(kHiddenColour);
        chart()->addSeries(bar);
        bar->attachAxis(x_axis_);
        bar->attachAxis(y_axis_);
        if (row > 0) // one legend entry for all of them
            for (QLegendMarker* marker : chart()->legend()->markers(bar))
                marker->setVisible(false);
        hidden_.push_back(bar);
    }
    x_axis_->setCategories(categories);
    y_axis_->setRange(0, max_ms > 0 ? max_ms * 1.08 : 1);
    y_axis_->applyNiceNumbers();
}

} // namespace scalebench
