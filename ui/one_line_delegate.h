// Draws a table cell on one line, elided as the view elides, in a view whose other cells wrap their text.
#pragma once

#include <QStyledItemDelegate>

namespace scalebench {

class OneLineDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

  protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace scalebench
