// Bandwidth against message size from a CollectivesModel: one line per tool, backend, collective, type, op,
// placement and rank count, sizes on a log2 scale labelled in bytes (B, KiB, MiB, ...).
#include "collectives_chart_view.h"

#include "chart_style.h"
#include "collectives_model.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QStringList>
#include <QValueAxis>
#include <algorithm>
#include <array>
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

// A sweep's name in parts: tool ("osu:", none for the engine's), backend, collective, type, op (reductions),
// placement, and rank count.
enum SweepPart { Tool, Backend, Collective, Type, Op, Placement, Ranks, SweepPartCount };
using SweepParts = std::array<QString, SweepPartCount>;

SweepParts sweepParts(const CollectiveRecord& c) {
    return {c.tool == "scalebench" ? QString() : QString::fromStdString(c.tool) + QLatin1Char(':'),
            QString::fromStdString(c.backend),
            QString::fromStdString(c.collective),
            QString::fromStdString(c.dtype),
            isReduction(c.collective) ? QString::fromStdString(c.op) : QString(),
            c.in_place ? QStringLiteral("in-place") : QString(),
            c.ranks == 1 ? QStringLiteral("1 rank") : QStringLiteral("%1 ranks").arg(c.ranks)};
}

// "osu: mpi allreduce float32 sum, 2 ranks", of the parts `shown` keeps.
QString joinedParts(const SweepParts& parts, const std::array<bool, SweepPartCount>& shown) {
    QStringList words;
    for (int part = Tool; part < Ranks; ++part)
        if (shown[static_cast<std::size_t>(part)] && !parts[static_cast<std::size_t>(part)].isEmpty())
            words << parts[static_cast<std::size_t>(part)];
    QString name = words.join(QLatin1Char(' '));
    if (shown[Ranks]) name += (name.isEmpty() ? QString() : QStringLiteral(", ")) + parts[Ranks];
    return name;
}

// What a legend of sweeps says: with two sweeps or more, each entry what tells its sweep apart ("mpi
// allgather") and `common` what they all share ("float32, 2 ranks", for the title); one sweep is named whole.
struct SweepLegend {
    QString common;
    QStringList names;
};

SweepLegend sweepLegend(const std::vector<SweepParts>& sweeps) {
    SweepLegend legend;
    std::array<bool, SweepPartCount> differs{}, all{};
    all.fill(true);
    for (const SweepParts& sweep : sweeps)
        for (std::size_t part = 0; part < SweepPartCount; ++part)
            differs[part] = differs[part] || sweep[part] != sweeps.front()[part];
    // Two sweeps or more: each legend entry names what tells its sweep apart, the title what they share.
    const bool split = sweeps.size() >= 2;
    if (split) {
        std::array<bool, SweepPartCount> common{};
        for (std::size_t part = 0; part < SweepPartCount; ++part)
            common[part] = !differs[part];
        legend.common = joinedParts(sweeps.front(), common);
    }
    for (const SweepParts& sweep : sweeps)
        legend.names << joinedParts(sweep, split ? differs : all);
    return legend;
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
    std::vector<std::pair<SweepParts, QList<QPointF>>> points;
    double min_log = 0, max_log = 0, max_bw = 0;
    bool any = false;
    for (const CollectiveRecord& c : records) {
        if (c.bytes <= 0) continue;
        auto [it, inserted] = index.try_emplace(sweepKey(c), points.size());
        if (inserted) points.push_back({sweepParts(c), {}});
        const double x = std::log2(static_cast<double>(c.bytes)), y = bus ? c.busbw_gbps : c.algbw_gbps;
        points[it->second].second.append({x, y});
        min_log = any ? std::min(min_log, x) : x;
        max_log = any ? std::max(max_log, x) : x;
        max_bw = std::max(max_bw, y);
        any = true;
    }
    const SweepLegend legend = sweepLegend([&] {
        std::vector<SweepParts> parts;
        for (const auto& sweep : points)
            parts.push_back(sweep.first);
        return parts;
    }());
    if (!legend.common.isEmpty()) chart()->setTitle(chart()->title() + QStringLiteral(": ") + legend.common);
    for (std::size_t i = 0; i < points.size(); ++i) {
        QList<QPointF>& list = points[i].second;
        const QString& name = legend.names[i];
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
