// Shows floating-point cells of a table with a fixed number of decimals (models keep full doubles for
// charts).
#include "decimal_delegate.h"

namespace scalebench {

QString DecimalDelegate::displayText(const QVariant& value, const QLocale& locale) const {
    if (value.typeId() == QMetaType::Double || value.typeId() == QMetaType::Float)
        return locale.toString(value.toDouble(), 'f', decimals_);
    return QStyledItemDelegate::displayText(value, locale);
}

} // namespace scalebench
