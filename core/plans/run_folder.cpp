// Where a run's files live on the machine that runs it: one folder per store, session and run, one per
// scheduler attempt inside it, and none of them ever reused.
#include "run_folder.h"

namespace scalebench {

std::string sessionFolder(const std::string& sessions_root, const SessionFolderKey& key) {
    const std::string number = key.session_id > 0 ? std::to_string(key.session_id) : "N";
    const std::string store = key.store_id.empty() ? "STORE" : key.store_id;
    const std::string uuid = key.session_uuid.empty() ? "UUID" : key.session_uuid;
    return sessions_root + "/" + store + "/session-" + number + "-" + uuid;
}

std::string runFolder(const std::string& sessions_root, const SessionFolderKey& key,
                      const std::string& run_name) {
    return sessionFolder(sessions_root, key) + "/" + run_name;
}

std::string attemptFolder(const std::string& run_folder, int attempt) {
    return run_folder + "/attempt-" + std::to_string(attempt);
}

std::string metricFile(const std::string& run_folder, int attempt, const std::string& file) {
    return attemptFolder(run_folder, attempt) + "/" + file;
}

} // namespace scalebench
