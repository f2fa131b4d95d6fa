// Every rank's compute time at every step of one run relative to that step's median across ranks, ranks
// grouped by node, slow ranks (findSlowRanks) marked: the data of the straggler heat map.
#include "rank_heat_map_model.h"

#include "analysis.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>
#include <map>

namespace scalebench {

RankHeatMapModel::RankHeatMapModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankHeatMapModel::setRankTimes(const std::vector<RankTimesRecord>& records,
                                    const std::vector<std::string>& hosts) {
    beginResetModel();
    steps_.clear();
    compute_s_.clear();
    relative_.clear();
    hosts_ = hosts;
    finding_ = findSlowRanks(records, hosts);
    std::size_t ranks = 0;
    for (const RankTimesRecord& r : records) {
        steps_.push_back(r.step);
        compute_s_.push_back(r.compute_s);
        const double m = median(r.compute_s);
        std::vector<double> relative;
        for (double c : r.compute_s)
            relative.push_back(m > 0 ? c / m : 0);
        relative_.push_back(std::move(relative));
        ranks = std::max(ranks, r.compute_s.size());
    }
    // Ranks grouped by node, nodes in order of their first rank; ranks without a host last.
    std::map<std::string, std::size_t> node_order;
    for (std::size_t r = 0; r < ranks; ++r) {
        const std::string host = r < hosts_.size() ? hosts_[r] : "";
        if (!host.empty()) node_order.try_emplace(host, node_order.size());
    }
    const auto order = [&](int rank) {
        const std::string host = static_cast<std::size_t>(rank) < hosts_.size() ? hosts_[rank] : "";
        return host.empty() ? node_order.size() : node_order.at(host);
    };
    row_ranks_.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r)
        row_ranks_[r] = static_cast<int>(r);
    std::stable_sort(row_ranks_.begin(), row_ranks_.end(), [&](int a, int b) { return order(a) < order(b); });
    slow_.assign(ranks, false);
    for (const SlowRank& s : finding_.slow_ranks)
        if (static_cast<std::size_t>(s.rank) < ranks) slow_[s.rank] = true;
    endResetModel();
}

int RankHeatMapModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(row_ranks_.size());
}

int RankHeatMapModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(steps_.size());
}

QVariant RankHeatMapModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int rank = row_ranks_[static_cast<std::size_t>(index.row())];
    const std::size_t step = static_cast<std::size_t>(index.column());
    const std::size_t r = static_cast<std::size_t>(rank);
    const double relative = r < relative_[step].size() ? relative_[step][r] : 0;
    switch (role) {
    case RelativeRole:
        return relative;
    case RankRole:
        return rank;
    case SlowRole:
        return static_cast<bool>(slow_[r]);
    case Qt::BackgroundRole: {
        if (relative <= 0) return QBrush(Qt::lightGray);
        // White at 1; red at 1.5 and above, blue at 0.5 and below.
        const double t = std::clamp((relative - 1) / 0.5, -1.0, 1.0);
        const int fade = static_cast<int>(255 * (1 - std::abs(t)));
        return QBrush(t > 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255));
    }
    case Qt::ToolTipRole: {
        const std::string host = r < hosts_.size() ? hosts_[r] : "";
        return tr("rank %1%2, step %3: compute %4 ms (%5 x the step's median)")
            .arg(rank)
            .arg(host.empty() ? QString() : tr(" on %1").arg(QString::fromStdString(host)))
            .arg(steps_[step])
            .arg(r < compute_s_[step].size() ? compute_s_[step][r] * 1e3 : 0.0, 0, 'f', 1)
            .arg(relative, 0, 'f', 2);
    }
    default:
        return {};
    }
}

QVariant RankHeatMapModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal) {
        if (role != Qt::DisplayRole || section < 0 || section >= columnCount()) return {};
        return static_cast<qlonglong>(steps_[static_cast<std::size_t>(section)]);
    }
    if (section < 0 || section >= rowCount()) return {};
    const int rank = row_ranks_[static_cast<std::size_t>(section)];
    const std::size_t r = static_cast<std::size_t>(rank);
    const bool slow = slow_[r];
    if (role == Qt::FontRole && slow) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::ForegroundRole && slow) return QBrush(QColor(200, 0, 0));
    if (role != Qt::DisplayRole) return {};
    const std::string host = r < hosts_.size() ? hosts_[r] : "";
    QString label = QString::number(rank);
    if (!host.empty()) label += QLatin1Char(' ') + QString::fromStdString(host);
    if (slow) label += tr(" slow");
    return label;
}

} // namespace scalebench
