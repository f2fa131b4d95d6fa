// The workload catalog as a tree: one top-level item per group that has workloads, its workloads below.
#pragma once

#include <QStandardItemModel>

namespace scalebench {

class WorkloadCatalogModel : public QStandardItemModel {
    Q_OBJECT

  public:
    static constexpr int WorkloadRole = Qt::UserRole + 1; // the workload's name; empty for a group

    explicit WorkloadCatalogModel(QObject* parent = nullptr);
    // The item of a workload, invalid when the catalog has none of that name.
    QModelIndex indexOf(const QString& workload) const;
};

} // namespace scalebench
