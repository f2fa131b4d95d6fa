// The clusters a session can run on: "local" (this machine, always first, never removable) and the store's
// clusters, one row each.
#include "cluster_list_model.h"

namespace scalebench {

ClusterListModel::ClusterListModel(QObject* parent)
    : QAbstractTableModel(parent), clusters_{localMachine()} {}

void ClusterListModel::setClusters(const std::vector<ClusterSettings>& stored) {
    beginResetModel();
    clusters_ = {localMachine()};
    for (const auto& c : stored)
        if (c.name != kLocalClusterName) clusters_.push_back(c);
    endResetModel();
}

const ClusterSettings& ClusterListModel::cluster(int row) const {
    return clusters_.at(static_cast<std::size_t>(row));
}

bool ClusterListModel::isRemovable(int row) const {
    return row > 0 && row < static_cast<int>(clusters_.size());
}

int ClusterListModel::rowOf(const QString& name) const {
    for (std::size_t i = 0; i < clusters_.size(); ++i)
        if (QString::fromStdString(clusters_[i].name) == name) return static_cast<int>(i);
    return -1;
}

int ClusterListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(clusters_.size());
}

int ClusterListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ClusterSettings& c = clusters_[static_cast<std::size_t>(index.row())];
    const bool local = isLocalMachine(c);
    if (role == Qt::ToolTipRole && local)
        return tr("This machine: runs start with mpirun here. Always available.");
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Name:
        return QString::fromStdString(c.name);
    case Host: {
        if (local) return tr("this machine");
        QString where = QString::fromStdString(c.host);
        if (!c.user.empty()) where = QString::fromStdString(c.user) + '@' + where;
        if (c.port > 0) where += ':' + QString::number(c.port);
        return where;
    }
    case Scheduler:
        if (local) return QStringLiteral("mpirun");
        return c.partition.empty() ? QStringLiteral("Slurm")
                                   : tr("Slurm, %1").arg(QString::fromStdString(c.partition));
    case GpusPerNode:
        return c.gpus_per_node > 0 ? QVariant(c.gpus_per_node) : QVariant(QStringLiteral("-"));
    }
    return {};
}

QVariant ClusterListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == GpusPerNode) return tr("GPUs per node requested from Slurm");
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Cluster");
    case Host:
        return tr("Head node");
    case Scheduler:
        return tr("Scheduler");
    case GpusPerNode:
        return tr("GPUs");
    }
    return {};
}

} // namespace scalebench
