// What reads a run's output as it grows: complete lines to the format's parser, broken lines counted.
#include "output_reader.h"

namespace scalebench {
namespace {
constexpr std::size_t kMaxKeptBroken = 100;
constexpr std::size_t kShownBytes = 120;
} // namespace

std::vector<MetricRecord> OutputReader::feed(std::string_view bytes) {
    std::vector<MetricRecord> out;
    readBytes(bytes, out);
    // pending_ holds no '\n': only the new bytes are searched (a line that grows by small feeds stays
    // linear).
    std::size_t searched = pending_.size();
    pending_.append(bytes);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', searched)) != std::string::npos;
         start = searched = nl + 1) {
        takeLine(std::string_view(pending_).substr(start, nl - start), out);
        consumed_ += static_cast<std::int64_t>(nl - start + 1);
    }
    pending_.erase(0, start);
    return out;
}

std::vector<MetricRecord> OutputReader::finish() {
    std::vector<MetricRecord> out;
    if (!pending_.empty()) {
        unterminated_ = true;
        takeLine(pending_, out);
        unterminated_ = false;
        consumed_ += static_cast<std::int64_t>(pending_.size());
        pending_.clear();
    }
    readEnd(out);
    return out;
}

void OutputReader::takeLine(std::string_view line, std::vector<MetricRecord>& out) {
    ++lines_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    readLine(line, out);
}

void OutputReader::countBroken(std::string_view line, std::string reason) {
    countBroken(lines_, line, std::move(reason));
}

void OutputReader::countBroken(std::int64_t line_number, std::string_view text, std::string reason) {
    ++broken_count_;
    if (broken_.size() < kMaxKeptBroken)
        broken_.push_back({line_number, std::move(reason), std::string(text.substr(0, kShownBytes))});
}

} // namespace scalebench
