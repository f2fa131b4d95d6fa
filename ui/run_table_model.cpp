// The runs of one session with their figures, speedup and efficiency, time to target, tokens/s, days to 1T
// tokens, TFLOP/s, MFU and MLPerf's time to train, one row per run.
#include "run_table_model.h"

#include "figure_labels.h"

#include <QColor>

namespace scalebench {
namespace {
const QColor kCautionColour(0xb3, 0x5c, 0x00); // dark orange: a figure not to take at face value
} // namespace

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunTableModel::setResults(std::vector<RunResult> results, GpuHourPrice price) {
    beginResetModel();
    results_ = std::move(results);
    price_ = std::move(price);
    scaling_ = runScaling(results_);
    cautions_ = figureCautions(results_);
    if (!results_.empty()) convention_ = results_.front().figures.convention;
    endResetModel();
}

int RunTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(results_.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::rawValue(int row, int column) const {
    const RunResult& r = results_[static_cast<std::size_t>(row)];
    const RunScaling& s = scaling_[static_cast<std::size_t>(row)];
    switch (column) {
    case Run:
        return QString::fromStdString(r.name);
    case Ranks:
        return r.ranks;
    case Status:
        return storedStatusText(r.status);
    case Check: {
        QStringList texts;
        for (const FigureCaution& c : cautions_[static_cast<std::size_t>(row)])
            texts << QString::fromStdString(c.short_text);
        return texts.join(QStringLiteral("; "));
    }
    case SamplesPerS:
        return r.figures.samples_per_s;
    case StepMs:
        return r.figures.breakdown.step_s * 1e3;
    case Speedup:
        return s.speedup;
    case Efficiency:
        return s.efficiency * 100;
    case FinalLoss:
        return r.figures.final_loss;
    case Eval: // in the metric's display scale (accuracy in %), for sorting
        return r.figures.final_eval
                   ? QVariant(*r.figures.final_eval * evalMetricStyle(r.figures.eval_metric).scale)
                   : QVariant();
    case TimeToTarget:
        return r.time_to_target_s ? QVariant(*r.time_to_target_s) : QVariant();
    case TimeToTargetSpeedup:
        return s.time_to_target_speedup ? QVariant(*s.time_to_target_speedup) : QVariant();
    case TokensPerS:
        return r.figures.tokens_per_s > 0 ? QVariant(r.figures.tokens_per_s) : QVariant();
    case DaysTo1T:
        return r.figures.tokens_per_s > 0 ? QVariant(daysToTrain(r.figures.tokens_per_s)) : QVariant();
    case TflopsPerDevice:
        return r.figures.model_flops_per_s > 0 && r.ranks > 0
                   ? QVariant(r.figures.model_flops_per_s / r.ranks / 1e12)
                   : QVariant();
    case Mfu:
        return r.figures.mfu ? QVariant(*r.figures.mfu * 100) : QVariant();
    case MlperfTimeToTrain:
        return r.mlperf_time_to_train_min ? QVariant(*r.mlperf_time_to_train_min) : QVariant();
    case Cost:
        if (const std::optional<double> cost = runCost(r, price_)) return *cost;
        return {};
    }
    return {};
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int column = index.column();
    const RunResult& r = results_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return column == Run || column == Status || column == Check
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Status && r.device_check) // the verdict, then why the run failed
        return QString::fromStdString(formatDeviceCheck(*r.device_check) +
                                      (r.error.empty() ? "" : "\n" + r.error));
    if (role == Qt::ToolTipRole && !r.error.empty()) return QString::fromStdString(r.error);
    if (role == Qt::ForegroundRole && column == Status && endedBadly(r.status)) return QColor(Qt::red);
    if (role == Qt::ToolTipRole || role == Qt::ForegroundRole) {
        const std::string figure = column == SamplesPerS  ? "samples/s"
                                   : column == Efficiency ? "efficiency"
                                                          : "";
        QStringList reasons;
        for (const FigureCaution& c : cautions_[static_cast<std::size_t>(index.row())])
            if (column == Check || c.figure == figure) reasons << QString::fromStdString(c.reason);
        if (reasons.isEmpty()) return {};
        return role == Qt::ToolTipRole ? QVariant(reasons.join(QLatin1Char('\n'))) : QVariant(kCautionColour);
    }
    if (role == Qt::UserRole) { // the plain number, empty where the table shows "-" (CSV: model_csv.h)
        const QVariant shown = data(index, Qt::DisplayRole);
        return shown == QStringLiteral("-") ? QVariant() : rawValue(index.row(), column);
    }
    if (role != Qt::DisplayRole) return {};

    const bool measured = r.figures.steady_steps > 0;
    const bool scaled = scaling_[static_cast<std::size_t>(index.row())].speedup > 0;
    const QVariant value = rawValue(index.row(), column);
    switch (column) {
    case Status:
        if (r.device_check)
            return QStringLiteral("%1, device check %2")
                .arg(value.toString(), QString::fromStdString(r.device_check->verdict));
        return value;
    case Run:
    case Ranks:
    case Check:
        return value;
    case SamplesPerS:
        return measured ? QString::number(value.toDouble(), 'f', 1) : QStringLiteral("-");
    case StepMs:
        return measured ? QString::number(value.toDouble(), 'f', 1) : QStringLiteral("-");
    case Speedup:
        return scaled ? QStringLiteral("%1x").arg(value.toDouble(), 0, 'f', 2) : QStringLiteral("-");
    case Efficiency:
        return scaled ? QStringLiteral("%1%").arg(value.toDouble(), 0, 'f', 0) : QStringLiteral("-");
    case FinalLoss:
        return measured ? QString::number(value.toDouble(), 'f', 4) : QStringLiteral("-");
    case Eval:
        return QString::fromStdString(formatEvalValue(r.figures.eval_metric, r.figures.final_eval));
    case TimeToTarget:
        return QString::fromStdString(formatTimeToTarget(r));
    case TimeToTargetSpeedup:
        return value.isValid() ? QStringLiteral("%1x").arg(value.toDouble(), 0, 'f', 2) : QStringLiteral("-");
    case TokensPerS:
        return value.isValid() ? QString::number(value.toDouble(), 'f', 0) : QStringLiteral("-");
    case DaysTo1T:
        return value.isValid() ? QString::number(value.toDouble(), 'f', 2) : QStringLiteral("-");
    case TflopsPerDevice:
        return value.isValid() ? QString::number(value.toDouble(), 'g', 4) : QStringLiteral("-");
    case Mfu:
        return value.isValid() ? QStringLiteral("%1%").arg(value.toDouble(), 0, 'f', 2) : QStringLiteral("-");
    case MlperfTimeToTrain:
        if (!value.isValid()) return QStringLiteral("-");
        return QStringLiteral("%1 min (%2%3)")
            .arg(value.toDouble(), 0, 'f', 2)
            .arg(QString::fromStdString(r.mlperf_status))
            .arg(r.mlperf_division.empty()
                     ? QString()
                     : QStringLiteral(", ") + QString::fromStdString(r.mlperf_division));
    case Cost:
        return value.isValid() ? QString::number(value.toDouble(), 'f', 2) : QStringLiteral("-");
    }
    return {};
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == SamplesPerS) return throughputHeaderTip(convention_);
    if (role == Qt::UserRole) { // CSV column names, with units
        static const char* const names[ColumnCount] = {"run",
                                                       "ranks",
                                                       "status",
                                                       "check",
                                                       "samples_per_s",
                                                       "step_ms",
                                                       "speedup",
                                                       "efficiency_percent",
                                                       "final_loss",
                                                       "eval",
                                                       "time_to_target_s",
                                                       "time_to_target_speedup",
                                                       "tokens_per_s",
                                                       "days_to_1t_tokens",
                                                       "tflops_per_rank",
                                                       "mfu_percent",
                                                       "mlperf_time_to_train_min",
                                                       "cost"};
        if (section < 0 || section >= ColumnCount) return {};
        if (section == Cost) return QStringLiteral("cost_%1").arg(QString::fromStdString(price_.currency));
        return QString::fromLatin1(names[section]);
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Run:
        return tr("Run");
    case Ranks:
        return tr("Ranks");
    case Status:
        return tr("Status");
    case Check:
        return tr("Check");
    case SamplesPerS:
        return throughputHeader(convention_);
    case StepMs:
        return tr("Step ms");
    case Speedup:
        return tr("Speedup");
    case Efficiency:
        return tr("Efficiency");
    case FinalLoss:
        return tr("Final loss");
    case Eval:
        return tr("Eval");
    case TimeToTarget:
        return tr("Time to target");
    case TimeToTargetSpeedup:
        return tr("T(N0)/T(N)");
    case TokensPerS:
        return tr("Tokens/s");
    case DaysTo1T:
        return tr("Days to 1T tokens");
    case TflopsPerDevice:
        return tr("TFLOP/s/rank");
    case Mfu:
        return tr("MFU");
    case MlperfTimeToTrain:
        return tr("MLPerf time to train");
    case Cost:
        return tr("Cost %1").arg(QString::fromStdString(price_.currency));
    }
    return {};
}

} // namespace scalebench
