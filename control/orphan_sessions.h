// Sessions left `running` by a console that ended without finishing them (a crash, kill -9, a second Ctrl-C):
// found at the next start and resolved, so that no session stays `running` forever.
#pragma once

#include "scheduler.h"
#include "stored_rows.h"
#include "transport.h"

#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

// Sessions still `running` (or `orphaned`) whose console, on this host, is gone.
std::vector<SessionRow> orphanedSessions(const SessionStore& store);

// Resolves what can be resolved without connecting anywhere: sessions on this machine have their leftover
// mpirun stopped, their records collected from their metric files and their runs stored as `abandoned`;
// sessions on a cluster are marked `orphaned` until resolveOrphansOnCluster meets them. Returns one line per
// session, saying what was done.
std::vector<std::string> resolveOrphans(SessionStore& store);

// On a cluster just connected to: its orphaned sessions' jobs are asked about (those still running are
// cancelled), what they wrote is collected, and runs and sessions are stored as `abandoned`.
std::vector<std::string> resolveOrphansOnCluster(SessionStore& store, const std::string& cluster,
                                                 Transport& transport, Scheduler& scheduler);

} // namespace scalebench
