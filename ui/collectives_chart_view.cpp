// Bandwidth against message size from a CollectivesModel: one line per tool, backend, collective, type, op,
// placement and rank count, sizes on a log2 scale labelled in bytes (B, KiB, MiB, ...).
#include "collectives_chart_view.h"

#include "chart_style.h"
#include "collectives_model.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace scalebench {

namespace {

using SweepKey = std::tuple<std::string, std::string, std::string, std::string, std::string, bool, int>;

SweepKey sweepKey(const CollectiveRecord& c) {
    return {c.tool, c.backend, c.collective, c.dtype, c.op, c.in_place, c.ranks};
}

bool isReduction(const std::string& collective) {
    return collective == "allreduce" || collective == "reduce" || collective == "reducescatter";
}

QString sweepName(const CollectiveRecord& c) {
    // The engine's sweeps by backend ("mpi allreduce ..."), an outside tool's by its name too ("osu: mpi
    // ...").
    QString name = QStringLiteral("%1 %2 %3")
                       .arg(QString::fromStdString(c.backend), QString::fromStdString(c.collective),
                            QString::fromStdString(c.dtype));
    if (c.tool != "scalebench") name = QString::fromStdString(c.tool) + QStringLiteral(": ") + name;
    if (isReduction(c.collective)) name += QLatin1Char(' ') + QString::fromStdString(c.op);
    if (c.in_place) name += QStringLiteral(" in-place");
    return name + (c.ranks == 1 ? QStringLiteral(", 1 rank") : QStringLiteral(", %1 ranks").arg(c.ranks));
}

} // namespace

CollectivesChartView::CollectivesChartView(CollectivesModel* model, QWidget* parent)
    : QChartView(parent), model_(model), x_axis_(new QCategoryAxis), y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    x_axis_->setTitleText(tr("message size (bytes, log2 scale)"));
    x_axis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y_axis_->setLabelFormat(QStringLiteral("%.2f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    connect(model_, &QAbstractItemModel::modelReset, this, &CollectivesChartView::refresh);
    connect(model_, &QAbstractItemModel::dataChanged, this, &CollectivesChartView::refresh);
    refresh();
}

void CollectivesChartView::setBandwidth(Bandwidth bandwidth) {
    if (bandwidth_ == bandwidth) return;
    bandwidth_ = bandwidth;
    refresh();
}

void CollectivesChartView::refresh() {
    const bool bus = bandwidth_ == Bandwidth::Bus;
    const std::vector<CollectiveRecord>& records = model_->records();
    chart()->setTitle(records.empty() ? tr("No collective sweeps to chart")
                      : bus           ? tr("Bus bandwidth per message size (busbw, nccl-tests)")
                                      : tr("Algorithm bandwidth per message size (algbw = bytes / time)"));
    y_axis_->setTitleText(bus ? tr("busbw (GB/s, 1e9 bytes/s)") : tr("algbw (GB/s, 1e9 bytes/s)"));

    for (QLineSeries* series : series_) {
        chart()->removeSeries(series);
        delete series;
    }
    series_.clear();

    std::map<SweepKey, std::size_t> index; // sweep -> position in `points`, in order of first appearance
    std::vector<std::pair<QString, QList<QPointF>>> points;
    double min_log = 0, max_log = 0, max_bw = 0;
    bool any = false;
    for (const CollectiveRecord& c : records) {
        if (c.bytes <= 0) continue;
        auto [it, inserted] = index.try_emplace(sweepKey(c), points.size());
        if (inserted) points.push_back({sweepName(c), {}});
        const double x = std::log2(static_cast<double>(c.bytes)), y = bus ? c.busbw_gbps : c.algbw_gbps;
        points[it->second].second.append({x, y});
        min_log = any ? std::min(min_log, x) : x;
        max_log = any ? std::max(max_log, x) : x;
        max_bw = std::max(max_bw, y);
        any = true;
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        auto& [name, list] = points[i];
        std::sort(list.begin(), list.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        auto* series = new QLineSeries;
        series->setName(name);
        series->setPen(QPen(paletteColour(static_cast<int>(i)), 2));
        series->setPointsVisible(list.size() <= 64);
        series->replace(list);
        chart()->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
        series_.push_back(series);
    }
    chart()->legend()->setAlignment(series_.size() > 4 ? Qt::AlignRight : Qt::AlignBottom);

    // Labels at powers of two, every 1, 2, 4, 10 or 20 doublings so that at most 9 are shown.
    for (const QString& label : x_axis_->categoriesLabels())
        x_axis_->remove(label);
    const double first = any ? std::floor(min_log) : 0, last = any ? std::ceil(max_log) : 10;
    int step = 20;
    for (int candidate : {1, 2, 4, 10, 20})
        if ((last - first) / candidate <= 8) {
            step = candidate;
            break;
        }
    const double start = std::floor(first / step) * step;
    for (double position = start; position <= last + 1e-9; position += step)
        x_axis_->append(CollectivesModel::sizeText(std::exp2(position)), position);
    x_axis_->setStartValue(start);
    x_axis_->setRange(std::min(start, first) - 0.3, last + 0.3);
    y_axis_->setRange(0, max_bw > 0 ? max_bw * 1.08 : 1);
    y_axis_->applyNiceNumbers();
}

} // namespace scalebench
