// Shows floating-point cells of a table with a fixed number of decimals (models keep full doubles for
// charts).
#pragma once

#include <QStyledItemDelegate>

namespace scalebench {

class DecimalDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    explicit DecimalDelegate(int decimals, QObject* parent = nullptr)
        : QStyledItemDelegate(parent), decimals_(decimals) {}
    QString displayText(const QVariant& value, const QLocale& locale) const override;

  private:
    int decimals_;
};

} // namespace scalebench
