// Draws a table cell on one line, elided as the view elides, in a view whose other cells wrap their text.
#include "one_line_delegate.h"

namespace scalebench {

void OneLineDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->features &= ~QStyleOptionViewItem::WrapText; // painting and the size hint alike
}

} // namespace scalebench
