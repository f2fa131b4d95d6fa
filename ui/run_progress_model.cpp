// The runs of the session being watched: state, where they wait or run, progress with ETA, latest figures,
// and each run's full step trace for the live charts.
#include "run_progress_model.h"

#include "figure_labels.h"
#include "stored_session_loader.h"

#include <algorithm>
#include <cmath>

namespace scalebench {
namespace {

constexpr int kCoalesceMs = 100;
constexpr std::size_t kEtaWindow = 20; // recent steps whose median step time predicts the rest

QString durationText(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s >= 3600) return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    if (s >= 60) return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 s").arg(s);
}

} // namespace

RunProgressModel::RunProgressModel(QObject* parent) : QAbstractTableModel(parent) {
    coalesce_.setSingleShot(true);
    coalesce_.setInterval(kCoalesceMs);
    connect(&coalesce_, &QTimer::timeout, this, &RunProgressModel::tracesChanged);
}

void RunProgressModel::startSession(std::int64_t session_id, const std::vector<RunSpec>& runs) {
    beginResetModel();
    session_id_ = session_id;
    rows_.clear();
    record_count_ = 0;
    for (const auto& spec : runs) {
        Row row;
        row.name = spec.name;
        row.ranks = spec.ranks;
        row.steps = spec.group.steps;
        rows_.push_back(std::move(row));
    }
    endResetModel();
    emit tracesChanged();
}

void RunProgressModel::setStoredSession(const StoredSession& session) {
    // Everything heavy (traces, their summaries, the headers' step counts) was built on the loader's thread.
    std::vector<Row> rows;
    rows.reserve(session.runs.size());
    std::size_t records = 0;
    for (const StoredRun& stored : session.runs) {
        const RunRow& run = stored.run;
        Row row;
        row.name = run.name;
        row.ranks = run.ranks;
        row.run_id = run.id;
        row.job_id = run.job_id;
        row.run_dir = run.run_dir;
        row.steps = stored.steps;
        row.status = run.status;
        row.state = shownStatusText(run.status);
        row.where = run.status == RunStatus::Failed || run.status == RunStatus::Cancelled
                        ? QString::fromStdString(run.error).section(QLatin1Char('\n'), 0, 0)
                        : QString::fromStdString(run.nodes);
        row.trace = stored.trace;
        records += row.trace->step.size() + row.trace->eval_step.size();
        rows.push_back(std::move(row));
    }
    beginResetModel();
    session_id_ = session.session_id;
    rows_.swap(rows); // the previous rows are freed after the reset, not inside it
    record_count_ = records;
    endResetModel();
    emit tracesChanged();
}

void RunProgressModel::runSubmitted(std::int64_t run_id, const std::string& name, const std::string& job_id,
                                    const std::string& run_dir) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        Row& row = rows_[i];
        if (row.run_id != 0 || row.name != name) continue;
        row.run_id = run_id;
        row.job_id = job_id;
        row.run_dir = run_dir;
        row.state = QStringLiteral("submitted");
        row.where = QStringLiteral("job %1").arg(QString::fromStdString(job_id));
        emit dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
        return;
    }
}

void RunProgressModel::runStateChanged(std::int64_t run_id, const JobStatus& status) {
    const int r = rowOf(run_id);
    if (r < 0) return;
    Row& row = rows_[static_cast<std::size_t>(r)];
    row.state = QString::fromLatin1(toString(status.state));
    if (status.state == JobState::Running)
        row.status = RunStatus::Running;
    else if (!isFinal(status.state))
        row.status = RunStatus::Pending; // waiting in the queue, or requeued
    if (status.state == JobState::Pending && !status.reason.empty())
        row.where = QStringLiteral("waiting: %1").arg(QString::fromStdString(status.reason));
    else if (!status.nodes.empty())
        row.where = QString::fromStdString(status.nodes);
    emit dataChanged(index(r, State), index(r, Where));
}

void RunProgressModel::appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    const int r = rowOf(run_id);
    if (r < 0) return;
    Row& row = rows_[static_cast<std::size_t>(r)];
    for (const auto& record : records) // the engine's count (epochs become steps there), not the plan's
        if (const auto* header = std::get_if<HeaderRecord>(&record); header && header->steps > 0)
            row.steps = static_cast<int>(header->steps);
    if (row.trace.use_count() > 1) row.trace = std::make_shared<RunTrace>(*row.trace); // shared: copied first
    if (row.steps > 0) row.trace->reserve(static_cast<std::size_t>(row.steps));
    row.trace->append(records);
    record_count_ += records.size();
    emit dataChanged(index(r, Progress), index(r, Loss));
    if (!coalesce_.isActive()) coalesce_.start();
}

void RunProgressModel::runFinished(std::int64_t run_id, RunStatus status, const QString& error) {
    const int r = rowOf(run_id);
    if (r < 0) return;
    Row& row = rows_[static_cast<std::size_t>(r)];
    row.status = status;
    row.state = shownStatusText(status);
    if (status != RunStatus::Ok) row.where = error.section(QLatin1Char('\n'), 0, 0);
    emit dataChanged(index(r, 0), index(r, ColumnCount - 1));
    emit tracesChanged();
}

std::int64_t RunProgressModel::runId(int row) const {
    return row >= 0 && row < rowCount() ? rows_[static_cast<std::size_t>(row)].run_id : 0;
}

QString RunProgressModel::runDir(int row) const {
    return row >= 0 && row < rowCount() ? QString::fromStdString(rows_[static_cast<std::size_t>(row)].run_dir)
                                        : QString();
}

QString RunProgressModel::runName(int row) const {
    return row >= 0 && row < rowCount() ? QString::fromStdString(rows_[static_cast<std::size_t>(row)].name)
                                        : QString();
}

bool RunProgressModel::isActive(int row) const {
    if (row < 0 || row >= rowCount()) return false;
    const Row& r = rows_[static_cast<std::size_t>(row)];
    return r.run_id != 0 && !hasEnded(r.status);
}

RunStatus RunProgressModel::status(int row) const {
    return rows_.at(static_cast<std::size_t>(row)).status;
}

const RunTrace& RunProgressModel::trace(int row) const {
    return *rows_.at(static_cast<std::size_t>(row)).trace;
}

SeriesSource RunProgressModel::seriesSource(int row, Metric metric, bool against_time) const {
    const RunTrace& t = trace(row);
    if (metric == Metric::Eval)
        return {against_time ? &t.eval_elapsed_s : &t.eval_step, &t.eval_value, nullptr};
    static_assert(int(Metric::Loss) == RunTrace::Loss &&
                  int(Metric::HiddenCommMs) == RunTrace::HiddenCommMs &&
                  int(Metric::Eval) == RunTrace::SeriesCount);
    const auto series = static_cast<RunTrace::Series>(metric); // the same order
    return {against_time ? &t.elapsed_s : &t.step, &t.series(series), &t.blocks[series]};
}

int RunProgressModel::rowOf(std::int64_t run_id) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].run_id == run_id) return static_cast<int>(i);
    return -1;
}

double RunProgressModel::etaSeconds(const Row& row) const {
    const auto& ms = row.trace->step_ms;
    if (ms.empty() || row.steps <= 0) return -1;
    const double done = row.trace->step.back();
    if (done >= row.steps) return 0;
    std::vector<double> recent(ms.end() - static_cast<std::ptrdiff_t>(std::min(kEtaWindow, ms.size())),
                               ms.end());
    std::nth_element(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(recent.size() / 2),
                     recent.end());
    return (row.steps - done) * recent[recent.size() / 2] / 1e3;
}

int RunProgressModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunProgressModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunProgressModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || (role != Qt::DisplayRole && role != Qt::UserRole))
        return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const RunTrace& t = *row.trace;
    const bool raw = role == Qt::UserRole;
    // A figure that does not exist yet: "-" on screen, an empty CSV field.
    const QVariant none = raw ? QVariant() : QVariant(QStringLiteral("-"));
    switch (index.column()) {
    case Run:
        return QString::fromStdString(row.name);
    case Ranks:
        return row.ranks;
    case State:
        return row.state;
    case Where:
        return row.where;
    case Progress: {
        const double done = t.step.empty() ? 0 : t.step.back();
        if (row.steps <= 0) { // a collective sweep: no training steps, only done or not
            const bool finished = row.status == RunStatus::Ok;
            return raw ? QVariant(finished ? 1.0 : 0.0)
                       : QVariant(finished ? tr("done") : QStringLiteral("-"));
        }
        const double fraction = std::min(1.0, done / row.steps);
        if (raw) return fraction;
        return QStringLiteral("%1 / %2").arg(static_cast<qint64>(done)).arg(row.steps);
    }
    case Eta: {
        const double eta = hasEnded(row.status) ? -1 : etaSeconds(row);
        if (eta < 0) return none;
        return raw ? QVariant(eta) : QVariant(durationText(eta));
    }
    case SamplesPerS:
        if (!t.steady_samples_per_s) return none;
        return raw ? QVariant(*t.steady_samples_per_s)
                   : QVariant(QString::number(*t.steady_samples_per_s, 'f', 1));
    case Loss:
        if (t.loss.empty()) return none;
        return raw ? QVariant(t.loss.back()) : QVariant(QString::number(t.loss.back(), 'f', 4));
    default:
        return {};
    }
}

QVariant RunProgressModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == SamplesPerS)
        return throughputHeaderTip(StepTimeConvention::SteadyStateMedian);
    if (role == Qt::UserRole) { // the CSV's column names, with their units (model_csv.h)
        static const char* const kNames[ColumnCount] = {
            "run", "ranks", "state", "where", "progress_fraction", "eta_s", "samples_per_s_median", "loss"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section]) : QVariant();
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Run:
        return tr("run");
    case Ranks:
        return tr("ranks");
    case State:
        return tr("state");
    case Where:
        return tr("waiting for / nodes");
    case Progress:
        return tr("progress (steps)");
    case Eta:
        return tr("ETA");
    case SamplesPerS:
        return throughputHeader(StepTimeConvention::SteadyStateMedian);
    case Loss:
        return tr("loss");
    default:
        return {};
    }
}

} // namespace scalebench
