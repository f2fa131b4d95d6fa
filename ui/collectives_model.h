// The message sizes of collective sweeps as a table: one row per (sweep, size) with time and bandwidths; the
// engine's sweeps and outside tools' (nccl-tests, OSU) side by side, each row naming its tool.
#pragma once

#include "results_table.h"

#include <QAbstractTableModel>
#include <vector>

namespace scalebench {

class CollectivesModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        Tool,
        Backend,
        Collective,
        Dtype,
        Op,
        InPlace,
        Ranks,
        Bytes,
        TimeUs,
        AlgBw,
        BusBw,
        Correct,
        ColumnCount
    };

    explicit CollectivesModel(QObject* parent = nullptr);

    // Replaces all rows in one reset, in the order given.
    void setRecords(std::vector<CollectiveRecord> records);
    // Every collective record of the session's runs, in run order.
    void setResults(const std::vector<RunResult>& results);
    const std::vector<CollectiveRecord>& records() const { return records_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text as shown (sizes as "4 KiB", times in us, bandwidths in GB/s); Qt::UserRole: the
    // raw value (bytes as qint64, seconds per call, GB/s, bool; none for a result not checked). The header's
    // Qt::UserRole: the CSV's column name with its unit ("time_s", "busbw_gbps").
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // 1024 -> "1 KiB", 1536 -> "1.5 KiB", 3 -> "3 B".
    static QString sizeText(double bytes);

  private:
    std::vector<CollectiveRecord> records_;
};

} // namespace scalebench
