// The message sizes of collective sweeps as a table: one row per (sweep, size) with time and bandwidths.
#include "collectives_model.h"

#include <QColor>
#include <array>

namespace scalebench {

CollectivesModel::CollectivesModel(QObject* parent) : QAbstractTableModel(parent) {}

void CollectivesModel::setRecords(std::vector<CollectiveRecord> records) {
    beginResetModel();
    records_ = std::move(records);
    endResetModel();
}

void CollectivesModel::setResults(const std::vector<RunResult>& results) {
    std::vector<CollectiveRecord> records;
    for (const RunResult& r : results)
        records.insert(records.end(), r.collectives.begin(), r.collectives.end());
    setRecords(std::move(records));
}

QString CollectivesModel::sizeText(double bytes) {
    static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    std::size_t unit = 0;
    while (bytes >= 1024 && unit + 1 < kUnits.size()) {
        bytes /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(QString::number(bytes, 'g', 4), QLatin1String(kUnits[unit]));
}

int CollectivesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(records_.size());
}

int CollectivesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectivesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CollectiveRecord& c = records_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column >= Ranks && column <= BusBw ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Correct && c.checked && !c.correct) return QColor(Qt::red);
    if (role == Qt::ForegroundRole && column == Correct && !c.checked) return QColor(Qt::gray);
    if (role == Qt::ToolTipRole && column == Correct && !c.checked)
        return tr("%1 did not check this result (nccl-tests -c 0, OSU without -c)")
            .arg(QString::fromStdString(c.tool));
    if (role == Qt::ToolTipRole && column == Bytes)
        return tr("%1 bytes, %2 elements").arg(c.bytes).arg(c.elements);
    if (role == Qt::UserRole) {
        switch (column) {
        case InPlace:
            return c.in_place;
        case Ranks:
            return c.ranks;
        case Bytes:
            return QVariant::fromValue<qint64>(c.bytes);
        case TimeUs:
            return c.time_s;
        case AlgBw:
            return c.algbw_gbps;
        case BusBw:
            return c.busbw_gbps;
        case Correct:
            return c.checked ? QVariant(c.correct) : QVariant();
        default: // the names: raw is what is shown
            return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Tool:
        return QString::fromStdString(c.tool);
    case Backend:
        return QString::fromStdString(c.backend);
    case Collective:
        return QString::fromStdString(c.collective);
    case Dtype:
        return QString::fromStdString(c.dtype);
    case Op:
        return reduces(c.collective) ? QString::fromStdString(c.op) : QStringLiteral("none");
    case InPlace:
        return c.in_place ? tr("in-place") : tr("out-of-place");
    case Ranks:
        return c.ranks;
    case Bytes:
        return sizeText(static_cast<double>(c.bytes));
    case TimeUs:
        return QString::number(c.time_s * 1e6, 'f', 1);
    case AlgBw:
        return QString::number(c.algbw_gbps, 'f', 3);
    case BusBw:
        return QString::number(c.busbw_gbps, 'f', 3);
    case Correct:
        return !c.checked ? tr("not checked") : c.correct ? tr("yes") : tr("NO");
    }
    return {};
}

QVariant CollectivesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case AlgBw:
            return tr("algbw = bytes / time (1e9 bytes/s)");
        case BusBw:
            return tr("busbw = algbw x the collective's bus factor, 2(n-1)/n for all-reduce (nccl-tests)");
        case TimeUs:
            return tr("mean time per call, averaged across ranks");
        case Tool:
            return tr("what measured it: scalebench (the engine's sweep), nccl-tests or osu");
        }
        return {};
    }
    if (role == Qt::UserRole) { // the CSV's column names, with their units
        static const char* const kCsvNames[ColumnCount] = {"tool",   "backend",    "collective", "dtype",
                                                           "op",     "in_place",   "ranks",      "bytes",
                                                           "time_s", "algbw_gbps", "busbw_gbps", "correct"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kCsvNames[section]) : QVariant();
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Tool:
        return tr("Tool");
    case Backend:
        return tr("Backend");
    case Collective:
        return tr("Collective");
    case Dtype:
        return tr("Type");
    case Op:
        return tr("Op");
    case InPlace:
        return tr("Placement");
    case Ranks:
        return tr("Ranks");
    case Bytes:
        return tr("Size");
    case TimeUs:
        return tr("Time (us)");
    case AlgBw:
        return tr("algbw (GB/s)");
    case BusBw:
        return tr("busbw (GB/s)");
    case Correct:
        return tr("Correct");
    }
    return {};
}

} // namespace scalebench
