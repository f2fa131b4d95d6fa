// Tables exported whole as PNG or SVG: every row of each model drawn as a document table (a heading, then
// each table with its title, in the model's text and colours), never a grab of the widget that shows a part
// of them between scroll bars.
#include "table_export.h"

#include <QAbstractItemModel>
#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QTableView>
#include <QTextDocument>
#include <memory>

namespace scalebench {

namespace {

QString colourOf(const QVariant& value) {
    if (value.canConvert<QBrush>()) return value.value<QBrush>().color().name();
    if (value.canConvert<QColor>()) return value.value<QColor>().name();
    return {};
}

std::vector<int> columnsOf(const ExportedTable& table) {
    if (!table.columns.empty()) return table.columns;
    std::vector<int> all;
    for (int column = 0; column < table.model->columnCount(); ++column)
        all.push_back(column);
    return all;
}

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

// The widest page an export makes: a report's figure, not a banner (a series' settings run to hundreds of
// characters, and unbroken they made Compare's PNG 10,707 pixels wide).
constexpr double kMostPageWidth = 1600;

// The document laid out as wide as its widest line, up to kMostPageWidth; past it, long cells wrap (whole,
// never cut) and rows grow.
std::unique_ptr<QTextDocument> layOut(const QString& heading, const std::vector<ExportedTable>& tables) {
    auto document = std::make_unique<QTextDocument>();
    document->setDocumentMargin(12);
    document->setHtml(tablesHtml(heading, tables));
    // No text width first: lines are not broken, and the page is as wide as its widest table or heading (a
    // nowrap style would write the spaces of the SVG's text as no-break spaces).
    document->setTextWidth(-1);
    if (document->idealWidth() > kMostPageWidth) document->setTextWidth(kMostPageWidth);
    return document;
}

} // namespace

ExportedTable shownTable(const QTableView& view, const QString& title) {
    ExportedTable table{title, view.model()};
    const QHeaderView* header = view.horizontalHeader();
    for (int visual = 0; view.model() && visual < header->count(); ++visual)
        if (const int column = header->logicalIndex(visual); !header->isSectionHidden(column))
            table.columns.push_back(column);
    return table;
}

QString tablesHtml(const QString& heading, const std::vector<ExportedTable>& tables) {
    QString html = QStringLiteral("<html><body>");
    if (!heading.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(heading);
    for (const ExportedTable& table : tables) {
        if (!table.model) continue;
        const QAbstractItemModel& model = *table.model;
        const std::vector<int> columns = columnsOf(table);
        if (!table.title.isEmpty()) html += QStringLiteral("<h4>%1</h4>").arg(table.title.toHtmlEscaped());
        html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\" "
                               "style=\"border-collapse: collapse; border-color: #c0c0c0\"><tr>");
        for (const int column : columns)
            html += QStringLiteral("<th bgcolor=\"#eeeeee\" align=\"left\">%1</th>")
                        .arg(model.headerData(column, Qt::Horizontal).toString().toHtmlEscaped());
        html += QStringLiteral("</tr>");
        for (int row = 0; row < model.rowCount(); ++row) {
            html += QStringLiteral("<tr>");
            for (const int column : columns) {
                const QModelIndex index = model.index(row, column);
                const QString background = colourOf(index.data(Qt::BackgroundRole));
                const QString foreground = colourOf(index.data(Qt::ForegroundRole));
                const bool right = (index.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight) != 0;
                QString text = index.data().toString().toHtmlEscaped();
                text.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
                if (!foreground.isEmpty())
                    text = QStringLiteral("<font color=\"%1\">%2</font>").arg(foreground, text);
                html += QStringLiteral("<td%1%2>%3</td>")
                            .arg(background.isEmpty() ? QString()
                                                      : QStringLiteral(" bgcolor=\"%1\"").arg(background),
                                 right ? QStringLiteral(" align=\"right\"") : QString(), text);
            }
            html += QStringLiteral("</tr>");
        }
        html += QStringLiteral("</table>");
    }
    return html + QStringLiteral("</body></html>");
}

bool saveTablesPng(const QString& heading, const std::vector<ExportedTable>& tables, const QString& path,
                   QString* error) {
    const auto document = layOut(heading, tables);
    const QSize size = document->size().toSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return fail(error, QStringLiteral("the tables are too large for one image"));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        document->drawContents(&painter);
    }
    if (!image.save(path, "PNG")) return fail(error, QStringLiteral("could not write %1").arg(path));
    return true;
}

bool saveTablesSvg(const QString& heading, const std::vector<ExportedTable>& tables, const QString& path,
                   QString* error) {
    if (!QFileInfo(path).absoluteDir().exists())
        return fail(error, QStringLiteral("could not write %1: no such folder").arg(path));
    const auto document = layOut(heading, tables);
    const QSize size = document->size().toSize();
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(error, QStringLiteral("could not write %1").arg(path));
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(QStringLiteral("scalebench tables"));
    svg.setDescription(QStringLiteral("Exported by scalebench"));
    QPainter painter;
    if (!painter.begin(&svg)) return fail(error, QStringLiteral("could not write the SVG"));
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    document->drawContents(&painter);
    if (!painter.end() || !file.flush()) return fail(error, QStringLiteral("could not finish %1").arg(path));
    return true;
}

} // namespace scalebench
