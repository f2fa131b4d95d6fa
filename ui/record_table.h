// The read-only table the window's tabs show records in: whole rows selected, no editing, compact rows.
#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace scalebench {

QTableView* makeRecordTable(QAbstractItemModel* model, const QString& name, QWidget* parent);

} // namespace scalebench
