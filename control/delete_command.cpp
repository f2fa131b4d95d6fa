// scalebench delete SESSION: a stored session, its runs and their records taken out of the store.
#include "delete_command.h"

#include "baseline_session.h"
#include "session_store.h"

#include <fmt/format.h>

namespace scalebench {

int deleteSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (!std::filesystem::exists(options.db))
            throw std::runtime_error("no session store " + options.db.string());
        SessionStore store(options.db);
        const SessionRow session = namedSession(store, options.report_session);
        const std::size_t runs = store.runs(session.id).size();
        store.deleteSession(session.id);
        out << fmt::format("deleted session {} '{}' ({} run{}, {}) from {}\n", session.id, session.name, runs,
                           runs == 1 ? "" : "s", storedWord(session.status), store.file().string());
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace scalebench
