// scalebench delete SESSION: a stored session, its runs and their records taken out of the store.
#pragma once

#include "console_options.h"

#include <ostream>

namespace scalebench {

// Deletes the session (its id, or its name: the newest of that name) and says what went. 0; 2 naming the
// problem (no store, no such session, a session still running here or on a cluster).
int deleteSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
