// The live view: loss, throughput and the per-step time breakdown of the watched runs, against step or wall
// time, redrawn from the RunProgressModel at most every 100 ms, each line decimated to the plot's pixel
// columns.
#include "live_view.h"

#include "chart_style.h"
#include "figure_labels.h"
#include "plot_lines_item.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace scalebench {
namespace {

// Runs a chart overlays at most: one per colour of the palette.
constexpr std::size_t kOverlaidRuns = 10;

// A nice number (Heckbert, Graphics Gems I; Qt Charts' choice): 1, 2, 5 or 10 times a power of ten.
double niceNumber(double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    if (ceiling) return (q <= 1.0 ? 1 : q <= 2.0 ? 2 : q <= 5.0 ? 5 : 10) * z;
    return (q < 1.5 ? 1 : q < 3.0 ? 2 : q < 7.0 ? 5 : 10) * z;
}

// The range QValueAxis::applyNiceNumbers makes of [low, high] (AbstractDomain::looseNiceNumbers), computed
// without setting the axis: its labels are laid out again at every range it is given.
void looseNiceNumbers(double& low, double& high, int& ticks) {
    const double range = niceNumber(high - low, true);
    const double step = niceNumber(range / (ticks - 1), false);
    low = std::floor(low / step);
    high = std::ceil(high / step);
    ticks = static_cast<int>(high - low) + 1;
    low *= step;
    high *= step;
}

// Sets the axis only where its range or ticks change.
void fitAxis(QValueAxis* axis, double low, double high, bool from_zero) {
    double min = 0, max = 1;
    int ticks = axis->tickCount();
    if (low <= high) {
        if (from_zero) low = std::min(0.0, low);
        const double pad = high > low ? (high - low) * 0.05 : std::max(1.0, std::abs(high) * 0.1);
        min = from_zero && low >= 0 ? low : low - pad;
        max = high + pad;
        looseNiceNumbers(min, max, ticks);
    }
    if (axis->min() != min || axis->max() != max) axis->setRange(min, max);
    if (axis->tickCount() != ticks) axis->setTickCount(ticks);
}

void setTitleOnce(QChart* chart, const QString& title) {
    if (chart->title() != title) chart->setTitle(title); // a new title lays the chart out again
}

std::size_t plotColumns(const QChartView* view) {
    const double width = view->chart()->plotArea().width();
    return static_cast<std::size_t>(std::max(1.0, width > 0 ? width : view->width()));
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
    forgetDecimations();
    connect(model_, &RunProgressModel::tracesChanged, this, &LiveView::refresh);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        forgetDecimations();
        refresh();
    });
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
    panel.lines = new PlotLinesItem(chart, panel.x_axis, panel.y_axis);
    PlotLinesItem* lines = panel.lines;
    connect(chart, &QChart::plotAreaChanged, this, [lines] { lines->plotChanged(); });
    return panel;
}

void LiveView::forgetDecimations() {
    for (Panel* panel : {&loss_, &throughput_, &breakdown_}) {
        panel->drawn.clear();
        panel->decimations.clear();
    }
}

void LiveView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The plots have other pixel columns now: decimate for them once the charts are laid out. (Not on every
    // change of the plot area: axis labels of another width move it by a few pixels at many redraws.)
    if (refresh_queued_) return;
    refresh_queued_ = true;
    QTimer::singleShot(0, this, [this] {
        refresh_queued_ = false;
        refresh();
    });
}

void LiveView::setRows(const std::vector<int>& rows) {
    rows_ = rows;
    refresh();
}

void LiveView::setAgainstTime(bool against_time) {
    against_time_ = against_time;
    forgetDecimations();
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
    auto rows = drawnRows();
    // A chart overlays at most the palette's ten colours of runs (a session of 1000 runs would lay out 1000
    // legend entries, for seconds); the runs table chooses others.
    const std::size_t runs = rows.size();
    if (rows.size() > kOverlaidRuns) rows.resize(kOverlaidRuns);
    std::vector<Line> loss, throughput, breakdown;
    // Legends name what tells the runs apart ("n1-r1"), the titles what they share
    // ("resnet20-fashion-mnist"): four runs of one workload read as four distinct entries, not four
    // "resnet20-fashi..." cut short.
    QStringList full_names;
    for (int r : rows)
        full_names << model_->runName(r);
    const RunLegendNames legend = runLegendNames(full_names);
    QString shared = legend.common.isEmpty() ? QString() : QStringLiteral(": ") + legend.common;
    if (runs > rows.size())
        shared += tr(" (%1 of %2 runs; choose others in the runs table)").arg(rows.size()).arg(runs);
    setTitleOnce(loss_.view->chart(), tr("Training loss") + shared);
    setTitleOnce(throughput_.view->chart(), tr("Throughput") + shared);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QString name = legend.names[static_cast<qsizetype>(i)];
        loss.push_back({name, rows[i], Metric::Loss});
        throughput.push_back({name, rows[i], Metric::SamplesPerS});
    }
    if (!rows.empty()) {
        const int focus = rows.front();
        breakdown = {{tr("step"), focus, Metric::StepMs},
                     {figureLabel(Figure::Forward), focus, Metric::ForwardMs},
                     {figureLabel(Figure::Backward), focus, Metric::BackwardMs},
                     {tr("exposed"), focus, Metric::ExposedCommMs},
                     {tr("hidden"), focus, Metric::HiddenCommMs}};
        setTitleOnce(breakdown_.view->chart(), tr("Step time breakdown: %1").arg(model_->runName(focus)));
    } else {
        setTitleOnce(breakdown_.view->chart(), tr("Step time breakdown"));
    }
    draw(loss_, loss);
    draw(throughput_, throughput);
    draw(breakdown_, breakdown);
}

void LiveView::showLegend(Panel& panel, const std::vector<Line>& lines) {
    QChart* chart = panel.view->chart();
    while (panel.series.size() > lines.size()) {
        chart->removeSeries(panel.series.back());
        delete panel.series.back();
        panel.series.pop_back();
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == panel.series.size()) {
            auto* series = new QLineSeries;
            chart->addSeries(series);
            series->attachAxis(panel.x_axis);
            series->attachAxis(panel.y_axis);
            series->setPen(QPen(paletteColour(static_cast<int>(i)), 1.6));
            panel.series.push_back(series);
        }
        if (panel.series[i]->name() != lines[i].name) panel.series[i]->setName(lines[i].name); // relayouts
    }
    if (chart->legend()->isVisible() == lines.empty()) chart->legend()->setVisible(!lines.empty());
}

void LiveView::draw(Panel& panel, const std::vector<Line>& lines) {
    showLegend(panel, lines);
    // A line that now shows another run or metric starts its decimation over.
    panel.decimations.resize(lines.size());
    panel.drawn.resize(lines.size(), Line{QString(), -1, RunProgressModel::Metric::Loss});
    std::vector<SeriesSource> sources;
    double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low, y_low = x_low, y_high = -x_low;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (panel.drawn[i].row != lines[i].row || panel.drawn[i].metric != lines[i].metric)
            panel.decimations[i].reset();
        panel.drawn[i] = lines[i];
        sources.push_back(model_->seriesSource(lines[i].row, lines[i].metric, against_time_));
        if (sources.back().xs->empty()) continue;
        x_low = std::min(x_low, sources.back().xs->front()); // steps and times only grow
        x_high = std::max(x_high, sources.back().xs->back());
    }
    const QString x_title = against_time_ ? tr("wall time (s)") : tr("step");
    if (panel.x_axis->titleText() != x_title) panel.x_axis->setTitleText(x_title);
    fitAxis(panel.x_axis, x_low, x_high, true);
    // The columns the plot shows that x range in: each line keeps what each column shows of it.
    const PixelColumns columns{panel.x_axis->min(), panel.x_axis->max(), plotColumns(panel.view)};
    std::vector<const std::vector<SeriesPoint>*> points;
    std::vector<QColor> colours;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const SeriesSource& source = sources[i];
        points.push_back(&panel.decimations[i].update(*source.xs, *source.ys, columns, source.blocks));
        colours.push_back(panel.series[i]->pen().color());
        for (const SeriesPoint& p : *points.back()) { // every column's extremes: the line's
            y_low = std::min(y_low, p.y);
            y_high = std::max(y_high, p.y);
        }
    }
    fitAxis(panel.y_axis, y_low, y_high, panel.key != QLatin1String("loss"));
    panel.lines->setLines(points, colours);
}

int LiveView::drawnPoints(const QString& chart) const {
    const Panel* panel = chart == loss_.key ? &loss_ : chart == throughput_.key ? &throughput_ : &breakdown_;
    return panel->lines->pointCount();
}

QChartView* LiveView::chartView(const QString& chart) const {
    return chart == loss_.key ? loss_.view : chart == throughput_.key ? throughput_.view : breakdown_.view;
}

} // namespace scalebench
