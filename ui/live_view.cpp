// The live view: loss, throughput and the per-step time breakdown of the watched runs, against step or wall
// time, redrawn from the RunProgressModel at most every 100 ms with display decimation.
#include "live_view.h"

#include "chart_style.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace scalebench {
namespace {

void fitAxis(QValueAxis* axis, double low, double high, bool from_zero) {
    if (!(low <= high)) {
        axis->setRange(0, 1);
        return;
    }
    if (from_zero) low = std::min(0.0, low);
    const double pad = high > low ? (high - low) * 0.05 : std::max(1.0, std::abs(high) * 0.1);
    axis->setRange(from_zero && low >= 0 ? low : low - pad, high + pad);
    axis->applyNiceNumbers();
}

} // namespace

LiveView::LiveView(RunProgressModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("x axis:"), this));
    x_choice_ = new QComboBox(this);
    x_choice_->setObjectName(QStringLiteral("liveXAxis"));
    x_choice_->addItems({tr("step"), tr("wall time (s)")});
    bar->addWidget(x_choice_);
    bar->addStretch(1);
    layout->addLayout(bar);

    loss_ = makePanel(QStringLiteral("loss"), tr("Training loss"), tr("loss"));
    throughput_ = makePanel(QStringLiteral("throughput"), tr("Throughput"), tr("samples/s"));
    breakdown_ = makePanel(QStringLiteral("breakdown"), tr("Step time breakdown"), tr("ms per step"));
    layout->addWidget(loss_.view, 1);
    auto* lower = new QHBoxLayout;
    lower->addWidget(throughput_.view, 1);
    lower->addWidget(breakdown_.view, 1);
    layout->addLayout(lower, 1);

    connect(x_choice_, &QComboBox::currentIndexChanged, this, [this](int i) { setAgainstTime(i == 1); });
    model_ = nullptr;
    setModel(model);
}

void LiveView::setModel(RunProgressModel* model) {
    if (model_) disconnect(model_, nullptr, this, nullptr);
    model_ = model;
    rows_.clear();
    connect(model_, &RunProgressModel::tracesChanged, this, &LiveView::refresh);
    connect(model_, &QAbstractItemModel::modelReset, this, &LiveView::refresh);
    refresh();
}

LiveView::Panel LiveView::makePanel(const QString& key, const QString& title, const QString& y_title) {
    Panel panel;
    panel.key = key;
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    panel.x_axis = new QValueAxis;
    panel.x_axis->setTitleText(tr("step"));
    panel.x_axis->setLabelFormat(QStringLiteral("%g"));
    panel.y_axis = new QValueAxis;
    panel.y_axis->setTitleText(y_title);
    panel.y_axis->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(panel.x_axis, Qt::AlignBottom);
    chart->addAxis(panel.y_axis, Qt::AlignLeft);
    panel.view = new QChartView(chart, this);
    panel.view->setObjectName(key + QStringLiteral("Chart"));
    panel.view->setRenderHint(QPainter::Antialiasing);
    panel.view->setMinimumSize(320, 220);
    return panel;
}

void LiveView::setRows(const std::vector<int>& rows) {
    rows_ = rows;
    refresh();
}

void LiveView::setAgainstTime(bool against_time) {
    against_time_ = against_time;
    if (x_choice_->currentIndex() != (against_time ? 1 : 0)) x_choice_->setCurrentIndex(against_time ? 1 : 0);
    refresh();
}

std::vector<int> LiveView::drawnRows() const {
    std::vector<int> rows;
    for (int r : rows_)
        if (r >= 0 && r < model_->rowCount()) rows.push_back(r);
    if (!rows.empty()) return rows;
    for (int r = 0; r < model_->rowCount(); ++r)
        if (!model_->trace(r).step.empty()) rows.push_back(r);
    return rows;
}

std::size_t LiveView::buckets(const Panel& panel) const {
    // One bucket per two pixel columns of the plot area: its min and max span what the line shows there.
    const int width = static_cast<int>(panel.view->chart()->plotArea().width());
    return static_cast<std::size_t>(std::max(100, (width > 0 ? width : panel.view->width()) / 2));
}

RunLegendNames runLegendNames(const QStringList& names) {
    RunLegendNames out{QString(), names};
    if (names.size() < 2) return out;
    // The longest run of whole '-'-separated words every name starts with, leaving each name a word.
    QStringList common = names.front().split(QLatin1Char('-'));
    for (const QString& name : names) {
        const QStringList words = name.split(QLatin1Char('-'));
        qsizetype same = 0;
        while (same < common.size() && same < words.size() - 1 && common[same] == words[same])
            ++same;
        common = common.mid(0, same);
    }
    if (common.isEmpty()) return out;
    out.common = common.join(QLatin1Char('-'));
    for (QString& name : out.names)
        name = name.mid(out.common.size() + 1);
    return out;
}

void LiveView::refresh() {
    using Metric = RunProgressModel::Metric;
    const auto rows = drawnRows();
    std::vector<std::pair<QString, std::vector<SeriesPoint>>> loss, throughput, breakdown;
    // Legends name what tells the runs apart ("n1-r1"), the titles what they share
    // ("resnet20-fashion-mnist"): four runs of one workload read as four distinct entries, not four
    // "resnet20-fashi..." cut short.
    QStringList full_names;
    for (int r : rows)
        full_names << model_->runName(r);
    const RunLegendNames legend = runLegendNames(full_names);
    const QString shared = legend.common.isEmpty() ? QString() : QStringLiteral(": ") + legend.common;
    loss_.view->chart()->setTitle(tr("Training loss") + shared);
    throughput_.view->chart()->setTitle(tr("Throughput") + shared);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const int r = rows[i];
        const QString name = legend.names[static_cast<qsizetype>(i)];
        loss.emplace_back(name, model_->series(r, Metric::Loss, against_time_, buckets(loss_)));
        throughput.emplace_back(name,
                                model_->series(r, Metric::SamplesPerS, against_time_, buckets(throughput_)));
    }
    if (!rows.empty()) {
        const int focus = rows.front();
        const auto n = buckets(breakdown_);
        breakdown.emplace_back(tr("step"), model_->series(focus, Metric::StepMs, against_time_, n));
        breakdown.emplace_back(tr("forward"), model_->series(focus, Metric::ForwardMs, against_time_, n));
        breakdown.emplace_back(tr("backward"), model_->series(focus, Metric::BackwardMs, against_time_, n));
        breakdown.emplace_back(tr("exposed"), model_->series(focus, Metric::ExposedCommMs, against_time_, n));
        breakdown.emplace_back(tr("hidden"), model_->series(focus, Metric::HiddenCommMs, against_time_, n));
        breakdown_.view->chart()->setTitle(tr("Step time breakdown: %1").arg(model_->runName(focus)));
    } else {
        breakdown_.view->chart()->setTitle(tr("Step time breakdown"));
    }
    draw(loss_, loss);
    draw(throughput_, throughput);
    draw(breakdown_, breakdown);
}

void LiveView::draw(Panel& panel, const std::vector<std::pair<QString, std::vector<SeriesPoint>>>& lines) {
    QChart* chart = panel.view->chart();
    while (panel.series.size() > lines.size()) {
        chart->removeSeries(panel.series.back());
        delete panel.series.back();
        panel.series.pop_back();
    }
    double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low, y_low = x_low, y_high = -x_low;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == panel.series.size()) {
            auto* series = new QLineSeries;
            chart->addSeries(series);
            series->attachAxis(panel.x_axis);
            series->attachAxis(panel.y_axis);
            series->setPen(QPen(paletteColour(static_cast<int>(i)), 1.6));
            panel.series.push_back(series);
        }
        QLineSeries* series = panel.series[i];
        if (series->name() != lines[i].first) series->setName(lines[i].first); // the legend relayouts
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(lines[i].second.size()));
        for (const auto& p : lines[i].second) {
            points.append(QPointF(p.x, p.y));
            x_low = std::min(x_low, p.x);
            x_high = std::max(x_high, p.x);
            y_low = std::min(y_low, p.y);
            y_high = std::max(y_high, p.y);
        }
        series->replace(points); // one signal for the whole series
    }
    const QString x_title = against_time_ ? tr("wall time (s)") : tr("step");
    if (panel.x_axis->titleText() != x_title) panel.x_axis->setTitleText(x_title);
    fitAxis(panel.x_axis, x_low, x_high, true);
    fitAxis(panel.y_axis, y_low, y_high, panel.key != QLatin1String("loss"));
    if (chart->legend()->isVisible() == lines.empty()) chart->legend()->setVisible(!lines.empty());
}

int LiveView::drawnPoints(const QString& chart) const {
    const Panel* panel = chart == loss_.key ? &loss_ : chart == throughput_.key ? &throughput_ : &breakdown_;
    int points = 0;
    for (const auto* s : panel->series)
        points += static_cast<int>(s->count());
    return points;
}

QChartView* LiveView::chartView(const QString& chart) const {
    return chart == loss_.key ? loss_.view : chart == throughput_.key ? throughput_.view : breakdown_.view;
}

} // namespace scalebench
