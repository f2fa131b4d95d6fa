// What the window asks before cancelling a whole session: the session named, and how many of its runs are
// still running or pending.
#include "session_cancel_question.h"

#include "run_progress_model.h"

#include <QObject>
#include <QStringList>

namespace scalebench {

QString sessionCancelQuestion(std::int64_t session_id, const QString& name, const RunProgressModel& runs) {
    int running = 0;
    int pending = 0; // not started yet, queued or starting: every state but running and the ended ones
    for (int row = 0; row < runs.rowCount(); ++row) {
        if (runs.status(row) == RunStatus::Running)
            ++running;
        else if (!hasEnded(runs.status(row)))
            ++pending;
    }
    const auto count = [](int n, const char* state) {
        return n == 1 ? QObject::tr("1 run %1").arg(QLatin1String(state))
                      : QObject::tr("%1 runs %2").arg(n).arg(QLatin1String(state));
    };
    QStringList left;
    if (running > 0) left << count(running, "running");
    if (pending > 0) left << count(pending, "pending");
    const QString session = name.isEmpty() ? QObject::tr("session %1").arg(session_id)
                                           : QObject::tr("session %1 (%2)").arg(session_id).arg(name);
    if (left.isEmpty()) return QObject::tr("Cancel %1? None of its runs is running or pending.").arg(session);
    return QObject::tr("Cancel %1? %2 will be stopped; the runs that ended keep their records.")
        .arg(session, left.join(QObject::tr(" and ")));
}

} // namespace scalebench
