// The settings two sessions ran with, only where they differ: key path, A's value, B's value.
#pragma once

#include "session_comparison.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class SettingsDiffModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Key, A, B, ColumnCount };

    explicit SettingsDiffModel(QObject* parent = nullptr);

    // Replaces all rows in one reset; the names head the A and B columns.
    void setDifferences(std::vector<SettingDifference> differences, const QString& name_a,
                        const QString& name_b);
    const std::vector<SettingDifference>& differences() const { return differences_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // A key missing on one side shows "(not set)" in grey italics there; Qt::UserRole (for CSV) gives the
    // value as stored, an invalid QVariant for a key not set, and the header's the column names key, a, b.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<SettingDifference> differences_;
    QString name_a_;
    QString name_b_;
};

} // namespace scalebench
