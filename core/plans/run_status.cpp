// The words of run and session statuses: one table each, read both ways.
#include "run_status.h"

#include <array>
#include <utility>

namespace scalebench {
namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 8> kRunStatusWords = {{
    {RunStatus::Pending, "pending"},
    {RunStatus::Running, "running"},
    {RunStatus::Ok, "ok"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::Abandoned, "abandoned"},
    {RunStatus::Aborted, "aborted"},
    {RunStatus::Cut, "cut"},
}};

constexpr std::array<std::pair<SessionStatus, std::string_view>, 6> kSessionStatusWords = {{
    {SessionStatus::Running, "running"},
    {SessionStatus::Orphaned, "orphaned"},
    {SessionStatus::Ok, "ok"},
    {SessionStatus::Failed, "failed"},
    {SessionStatus::Cancelled, "cancelled"},
    {SessionStatus::Abandoned, "abandoned"},
}};

template <typename Status, std::size_t N>
std::string_view wordOf(const std::array<std::pair<Status, std::string_view>, N>& table, Status status) {
    for (const auto& [s, word] : table)
        if (s == status) return word;
    return "unknown";
}

template <typename Status, std::size_t N>
std::optional<Status> statusNamed(const std::array<std::pair<Status, std::string_view>, N>& table,
                                  std::string_view word) {
    for (const auto& [s, w] : table)
        if (w == word) return s;
    return std::nullopt;
}

} // namespace

std::string_view storedWord(RunStatus status) {
    return wordOf(kRunStatusWords, status);
}
std::string_view storedWord(SessionStatus status) {
    return wordOf(kSessionStatusWords, status);
}

std::string_view shownWord(RunStatus status) {
    return status == RunStatus::Ok ? "done" : storedWord(status);
}

std::optional<RunStatus> runStatusNamed(std::string_view word) {
    return statusNamed(kRunStatusWords, word);
}
std::optional<SessionStatus> sessionStatusNamed(std::string_view word) {
    return statusNamed(kSessionStatusWords, word);
}

bool hasEnded(RunStatus status) {
    return status != RunStatus::Pending && status != RunStatus::Running;
}

bool endedBadly(RunStatus status) {
    return status == RunStatus::Failed || status == RunStatus::Aborted || status == RunStatus::Cut;
}

std::ostream& operator<<(std::ostream& out, RunStatus status) {
    return out << storedWord(status);
}
std::ostream& operator<<(std::ostream& out, SessionStatus status) {
    return out << storedWord(status);
}

} // namespace scalebench
