// Draws a table cell as a progress bar: the fraction from Qt::UserRole, the text from Qt::DisplayRole.
#pragma once

#include <QStyledItemDelegate>

namespace scalebench {

class ProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace scalebench
