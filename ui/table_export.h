// Tables exported whole as PNG or SVG: every row of each model drawn as a document table (a heading, then
// each table with its title, in the model's text and colours), never a grab of the widget that shows a part
// of them between scroll bars.
#pragma once

#include <QString>
#include <vector>

class QAbstractItemModel;
class QTableView;
class QTextDocument;

namespace scalebench {

struct ExportedTable {
    QString title;                             // above the table; none where empty
    const QAbstractItemModel* model = nullptr; // every row of it
    std::vector<int> columns{};                // which columns, in this order; empty: all
};

// A table view's model whole, with the columns the view shows, in the order it shows them.
ExportedTable shownTable(const QTableView& view, const QString& title = {});

// The tables as HTML: each cell's Qt::DisplayRole text with its Qt::ForegroundRole and Qt::BackgroundRole
// colours, numbers right-aligned as the model aligns them. `heading` is rich text (a QLabel's).
QString tablesHtml(const QString& heading, const std::vector<ExportedTable>& tables);
// Both need a QGuiApplication (fonts). The page is as wide as the widest table needs, at most 1600 pixels
// (past that, long cells wrap), and as tall as all rows; false with `error` set when the file cannot be
// written.
bool saveTablesPng(const QString& heading, const std::vector<ExportedTable>& tables, const QString& path,
                   QString* error = nullptr);
bool saveTablesSvg(const QString& heading, const std::vector<ExportedTable>& tables, const QString& path,
                   QString* error = nullptr);

} // namespace scalebench
