// The workload catalog as a tree: one top-level item per group that has workloads, its workloads below.
#include "workload_catalog_model.h"

#include "workload_catalog.h"

namespace scalebench {

WorkloadCatalogModel::WorkloadCatalogModel(QObject* parent) : QStandardItemModel(parent) {
    setHorizontalHeaderLabels({tr("Workload"), tr("Precisions")});
    for (const auto& group : workloadGroups()) {
        QList<QStandardItem*> workloads;
        for (const auto& w : workloadCatalog()) {
            if (w.group != group) continue;
            auto* item = new QStandardItem(QString::fromStdString(w.name));
            item->setData(QString::fromStdString(w.name), WorkloadRole);
            item->setToolTip(QString::fromStdString(w.description + "\n" + w.source));
            item->setEditable(false);
            QStringList precisions;
            for (const auto& p : w.precisions)
                precisions << QString::fromStdString(p);
            auto* precision = new QStandardItem(precisions.join(QStringLiteral(", ")));
            precision->setEditable(false);
            workloads << item << precision;
        }
        if (workloads.isEmpty()) continue;
        auto* heading = new QStandardItem(QString::fromStdString(group));
        heading->setEditable(false);
        heading->setSelectable(false);
        auto* blank = new QStandardItem;
        blank->setEditable(false);
        blank->setSelectable(false);
        for (int i = 0; i < workloads.size(); i += 2)
            heading->appendRow({workloads[i], workloads[i + 1]});
        appendRow({heading, blank});
    }
}

QModelIndex WorkloadCatalogModel::indexOf(const QString& workload) const {
    const auto found = match(index(0, 0), WorkloadRole, workload, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? QModelIndex() : found.first();
}

} // namespace scalebench
