// The read-only table the window's tabs show records in: whole rows selected, no editing, compact rows.
#include "record_table.h"

#include <QHeaderView>
#include <QTableView>

namespace scalebench {

QTableView* makeRecordTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    // Columns sized to their contents look at the first 100 rows, not all of them: sizing a 1000-run table
    // scanned every cell in one turn of the event loop (bench/window_stall_bench).
    view->horizontalHeader()->setResizeContentsPrecision(100);
    return view;
}

} // namespace scalebench
