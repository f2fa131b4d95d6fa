// The settings two sessions ran with, only where they differ: key path, A's value, B's value.
#include "settings_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace scalebench {

SettingsDiffModel::SettingsDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void SettingsDiffModel::setDifferences(std::vector<SettingDifference> differences, const QString& name_a,
                                       const QString& name_b) {
    beginResetModel();
    differences_ = std::move(differences);
    name_a_ = name_a;
    name_b_ = name_b;
    endResetModel();
}

int SettingsDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(differences_.size());
}

int SettingsDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SettingsDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const SettingDifference& d = differences_[static_cast<std::size_t>(index.row())];
    const std::optional<std::string>* value = index.column() == A   ? &d.a
                                              : index.column() == B ? &d.b
                                                                    : nullptr;
    const bool missing = value && !*value;
    if (missing && role == Qt::ForegroundRole) return QBrush(QColor(128, 128, 128));
    if (missing && role == Qt::FontRole) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    if (role == Qt::ToolTipRole && value && *value) return QString::fromStdString(**value);
    if (role == Qt::UserRole) { // for CSV: the value as stored, none where the key is not set
        if (!value) return QString::fromStdString(d.key);
        return missing ? QVariant() : QVariant(QString::fromStdString(**value));
    }
    if (role != Qt::DisplayRole) return {};
    if (!value) return QString::fromStdString(d.key);
    return missing ? tr("(not set)") : QString::fromStdString(**value);
}

QVariant SettingsDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::UserRole) // the CSV's column names
        return section == Key ? QStringLiteral("key")
               : section == A ? QStringLiteral("a")
               : section == B ? QStringLiteral("b")
                              : QVariant();
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Key:
        return tr("Setting");
    case A:
        return name_a_.isEmpty() ? tr("A") : tr("A: %1").arg(name_a_);
    case B:
        return name_b_.isEmpty() ? tr("B") : tr("B: %1").arg(name_b_);
    }
    return {};
}

} // namespace scalebench
