// Draws a table cell as a progress bar: the fraction from Qt::UserRole, the text from Qt::DisplayRole.
#include "progress_delegate.h"

#include <QApplication>
#include <QStyleOptionProgressBar>
#include <algorithm>
#include <cmath>

namespace scalebench {

void ProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    QStyleOptionProgressBar bar;
    bar.rect = option.rect.adjusted(2, 2, -2, -2);
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress =
        static_cast<int>(std::lround(std::clamp(index.data(Qt::UserRole).toDouble(), 0.0, 1.0) * 1000));
    bar.text = index.data(Qt::DisplayRole).toString();
    bar.textVisible = true;
    bar.state = option.state | QStyle::State_Horizontal;
    bar.palette = option.palette;
    QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
}

} // namespace scalebench
