// The clusters a session can run on: "local" (this machine, always first, never removable) and the store's
// clusters, one row each.
#pragma once

#include "cluster_settings.h"

#include <QAbstractTableModel>
#include <vector>

namespace scalebench {

class ClusterListModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Name, Host, Scheduler, GpusPerNode, ColumnCount };

    explicit ClusterListModel(QObject* parent = nullptr);

    // Replaces every row in one reset: "local" first, then `stored` in their order ("local" among them is
    // dropped: this machine is not a stored cluster).
    void setClusters(const std::vector<ClusterSettings>& stored);
    const ClusterSettings& cluster(int row) const;
    bool isRemovable(int row) const;      // every row but "local"
    int rowOf(const QString& name) const; // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<ClusterSettings> clusters_;
};

} // namespace scalebench
