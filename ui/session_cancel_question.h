// What the window asks before cancelling a whole session (Cancel session, Ctrl+.): the session named, and how
// many of its runs are still running or pending.
#pragma once

#include <QString>
#include <cstdint>

namespace scalebench {

class RunProgressModel;

// "Cancel session 7 (journey)? 1 run running and 2 runs pending will be stopped; the runs that ended keep
// their records." `name` may be empty; `runs` holds the session's runs as the window shows them.
QString sessionCancelQuestion(std::int64_t session_id, const QString& name, const RunProgressModel& runs);

} // namespace scalebench
