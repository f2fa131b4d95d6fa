// The runs of the session being watched: state, where they wait or run, progress with ETA, latest figures,
// and each run's full step trace for the live charts. Fed by the SessionController's signals.
#pragma once

#include "figure_labels.h"
#include "job_status.h"
#include "metric_record.h"
#include "run_plan.h"
#include "run_trace.h"
#include "series_decimation.h"

#include <QAbstractTableModel>
#include <QTimer>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace scalebench {

struct StoredSession;

// A run's series as the model keeps it: x (step or elapsed seconds), the metric's values, and the block
// summaries of those values (none for evaluations). Valid until the model changes.
struct SeriesSource {
    const std::vector<double>* xs = nullptr;
    const std::vector<double>* ys = nullptr;
    const SeriesBlocks* blocks = nullptr;
};

class RunProgressModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Run, Ranks, State, Where, Progress, Eta, SamplesPerS, Loss, ColumnCount };
    // What a live chart can draw against step or elapsed time.
    enum class Metric { Loss, SamplesPerS, StepMs, ForwardMs, BackwardMs, ExposedCommMs, HiddenCommMs, Eval };

    explicit RunProgressModel(QObject* parent = nullptr);

    // A stored session as the loader read it (finished or still running elsewhere), with every step.
    void setStoredSession(const StoredSession& session);
    // A new session: one row per run, all pending.
    void startSession(std::int64_t session_id, const std::vector<RunSpec>& runs);
    // The n-th run of the session (in plan order) was submitted as run_id.
    void runSubmitted(std::int64_t run_id, const std::string& name, const std::string& job_id,
                      const std::string& run_dir);
    void runStateChanged(std::int64_t run_id, const JobStatus& status);
    void appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    // status as stored: ok, failed or cancelled.
    void runFinished(std::int64_t run_id, RunStatus status, const QString& error);

    std::int64_t sessionId() const { return session_id_; }
    std::int64_t runId(int row) const; // 0 before submission
    QString runDir(int row) const;     // "" before submission
    QString runName(int row) const;
    bool isActive(int row) const; // submitted and not finished
    // Where the row's run stands (pending while it waits for its turn or in the scheduler's queue).
    RunStatus status(int row) const;
    const RunTrace& trace(int row) const;
    std::size_t recordCount() const { return record_count_; }
    // The run's whole series, for views that decimate it themselves.
    SeriesSource seriesSource(int row, Metric metric, bool against_time) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text; Qt::UserRole: the plain value for CSV (model_csv.h), invalid where there is no
    // figure yet (Progress: fraction 0..1; Eta: seconds); the header's Qt::UserRole: column names with units.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  signals:
    // New records arrived; emitted at most every 100 ms however fast records come.
    void tracesChanged();

  private:
    struct Row {
        std::string name;
        int ranks = 0;
        int steps = 0;
        std::int64_t run_id = 0;
        std::string job_id, run_dir;
        RunStatus status = RunStatus::Pending;
        // What the State column says: the run's shown status, or the scheduler's word for its job while it
        // waits or runs ("submitted", "requeued", "timeout", ...).
        QString state = shownStatusText(RunStatus::Pending), where;
        // A stored run's is shared with the loader's answer (StoredRun::trace): copied before it grows.
        std::shared_ptr<RunTrace> trace = std::make_shared<RunTrace>();
    };
    int rowOf(std::int64_t run_id) const;
    double etaSeconds(const Row& row) const;

    std::int64_t session_id_ = 0;
    std::vector<Row> rows_;
    std::size_t record_count_ = 0;
    QTimer coalesce_;
};

} // namespace scalebench
