// LIBSVM text data, one rank's disjoint shard as dense features (MLBench task 2's epsilon is dense).
#include "libsvm_file.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <torch/torch.h>
#include <utility>
#include <vector>

namespace scalebench {
namespace {

struct ParsedLine {
    float label = 0;
    std::vector<std::pair<int64_t, float>> entries; // (0-based index, value), ascending
};

[[noreturn]] void fail(const std::filesystem::path& path, int64_t line, const std::string& problem) {
    throw std::runtime_error("LIBSVM file " + path.string() + ", line " + std::to_string(line) + ": " +
                             problem);
}

bool isBlank(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    return first == std::string_view::npos || text[first] == '#';
}

template <typename Number> bool parseWhole(std::string_view text, Number& value) {
    // from_chars for floats accepts no leading '+'; LIBSVM labels are often written "+1".
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t from = 0;
    while (true) {
        from = text.find_first_not_of(" \t\r", from);
        if (from == std::string_view::npos) break;
        const auto to = std::min(text.find_first_of(" \t\r", from), text.size());
        out.push_back(text.substr(from, to - from));
        from = to;
    }
    return out;
}

// The 1-based index of "index:value", or 0 when the word is not one.
int64_t indexOf(std::string_view word) {
    const auto colon = word.find(':');
    int64_t index = 0;
    if (colon == std::string_view::npos || !parseWhole(word.substr(0, colon), index)) return 0;
    return index;
}

ParsedLine parseLine(std::string_view text, const std::filesystem::path& path, int64_t line) {
    const auto parts = words(text);
    ParsedLine parsed;
    double label = 0;
    if (!parseWhole(parts.front(), label))
        fail(path, line, "label '" + std::string(parts.front()) + "' is not a number");
    if (label == 1)
        parsed.label = 1;
    else if (label == -1 || label == 0)
        parsed.label = 0;
    else
        fail(path, line,
             "label " + std::string(parts.front()) + " is not +1, -1, 1 or 0 (binary classification)");
    int64_t previous = 0;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const auto word = parts[i];
        const auto colon = word.find(':');
        int64_t index = 0;
        float value = 0;
        if (colon == std::string_view::npos || !parseWhole(word.substr(0, colon), index) ||
            !parseWhole(word.substr(colon + 1), value))
            fail(path, line, "'" + std::string(word) + "' is not index:value");
        if (index < 1) fail(path, line, "index " + std::to_string(index) + " (indices start at 1)");
        if (index <= previous)
            fail(path, line,
                 "index " + std::to_string(index) + " after " + std::to_string(previous) +
                     " (indices must ascend)");
        if (!std::isfinite(value))
            fail(path, line, "value of index " + std::to_string(index) + " is not finite");
        previous = index;
        parsed.entries.emplace_back(index - 1, value);
    }
    return parsed;
}

} // namespace

LibsvmShard readLibsvmShard(const std::filesystem::path& path, int rank, int ranks, int64_t feature_count) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("LIBSVM file " + path.string() + " cannot be read (missing?)");
    std::vector<ParsedLine> mine;
    int64_t largest = 0, samples = 0, line = 0;
    std::string text;
    while (std::getline(in, text)) {
        ++line;
        if (isBlank(text)) continue;
        if (samples++ % ranks == rank) {
            mine.push_back(parseLine(text, path, line));
            if (!mine.back().entries.empty())
                largest = std::max(largest, mine.back().entries.back().first + 1);
            if (feature_count > 0 && largest > feature_count)
                fail(path, line,
                     "index " + std::to_string(largest) + " beyond the " + std::to_string(feature_count) +
                         " features stated");
        } else if (feature_count == 0) {
            // Another rank's line: only its last (largest) index, for the common width.
            const auto parts = words(text);
            if (parts.size() > 1) largest = std::max(largest, indexOf(parts.back()));
        }
    }
    if (in.bad()) throw std::runtime_error("LIBSVM file " + path.string() + ": read error");
    if (samples == 0) throw std::runtime_error("LIBSVM file " + path.string() + " holds no samples");
    if (mine.empty())
        throw std::runtime_error("LIBSVM file " + path.string() + ": " + std::to_string(samples) +
                                 " samples leave rank " + std::to_string(rank) + " of " +
                                 std::to_string(ranks) + " none");
    LibsvmShard shard;
    shard.feature_count = feature_count > 0 ? feature_count : largest;
    if (shard.feature_count == 0)
        throw std::runtime_error("LIBSVM file " + path.string() + " has no features");
    const auto n = static_cast<int64_t>(mine.size());
    shard.features = torch::zeros({n, shard.feature_count}, torch::kFloat32);
    shard.labels = torch::empty({n}, torch::kFloat32);
    auto features = shard.features.accessor<float, 2>();
    auto labels = shard.labels.accessor<float, 1>();
    for (int64_t i = 0; i < n; ++i) {
        labels[i] = mine[static_cast<std::size_t>(i)].label;
        for (const auto& [index, value] : mine[static_cast<std::size_t>(i)].entries)
            features[i][index] = value;
    }
    return shard;
}

} // namespace scalebench
