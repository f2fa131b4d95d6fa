// Stored sessions named on the command line, and the one a figure is judged against (--baseline).
#include "baseline_session.h"

#include "session_store.h"

#include <stdexcept>

namespace scalebench {

std::optional<SessionRow> findSession(const std::vector<SessionRow>& sessions,
                                      const std::string& id_or_name) {
    std::optional<SessionRow> found;
    for (const SessionRow& s : sessions)
        if (std::to_string(s.id) == id_or_name) return s;
    for (const SessionRow& s : sessions)
        if (s.name == id_or_name && (!found || s.id > found->id)) found = s;
    return found;
}

SessionRow namedSession(const SessionStore& store, const std::string& id_or_name) {
    if (std::optional<SessionRow> found = findSession(store.sessions(), id_or_name)) return *found;
    throw std::runtime_error("no session '" + id_or_name + "' (an id or a name) in " + store.file().string());
}

std::optional<SessionRow> baselineSession(const SessionStore& store, const std::string& baseline,
                                          const SessionRow& current) {
    const std::vector<SessionRow> sessions = store.sessions();
    std::optional<SessionRow> found;
    if (baseline == "last") {
        for (const SessionRow& s : sessions)
            if (s.id < current.id && s.name == current.name && s.cluster == current.cluster &&
                s.status == SessionStatus::Ok && (!found || s.id > found->id))
                found = s;
        return found;
    }
    for (const SessionRow& s : sessions)
        if (std::to_string(s.id) == baseline) return s;
    for (const SessionRow& s : sessions)
        if (s.name == baseline && s.id != current.id && (!found || s.id > found->id)) found = s;
    if (!found)
        throw std::runtime_error("no baseline session '" + baseline +
                                 "' in the store (an id, a session's name, or 'last')");
    return found;
}

} // namespace scalebench
