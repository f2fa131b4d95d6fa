// Stored sessions named on the command line: by id or name (report, project), and the session a figure is
// judged against (run --baseline, report --baseline): by id, by name, or as "last".
#pragma once

#include "stored_rows.h"

#include <optional>
#include <string>

namespace scalebench {

class SessionStore;

// The session `id_or_name` names: the one with that id, else the newest with that name.
std::optional<SessionRow> findSession(const std::vector<SessionRow>& sessions, const std::string& id_or_name);
// The same in `store`; throws std::runtime_error "no session 'X' (an id or a name) in FILE" where there is
// none.
SessionRow namedSession(const SessionStore& store, const std::string& id_or_name);

// `baseline`: a session's id; a session's name (the newest of that name other than `current`); or "last": the
// latest session before `current` of the same plan name on the same cluster that ended ok. nullopt where
// "last" finds none; throws std::runtime_error naming `baseline` for an id or name not in the store.
std::optional<SessionRow> baselineSession(const SessionStore& store, const std::string& baseline,
                                          const SessionRow& current);

} // namespace scalebench
