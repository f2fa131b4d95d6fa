// Reads nccl-tests' text output (all_reduce_perf and the others, on stdout) as it grows, into records.
#include "nccl_tests_table_reader.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace scalebench {
namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> wordsOf(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && isBlank(line[at]))
            ++at;
        const std::size_t start = at;
        while (at < line.size() && !isBlank(line[at]))
            ++at;
        if (at > start) words.push_back(line.substr(start, at - start));
    }
    return words;
}

// The line as the test printed it, without what launchers add: Open MPI's --tag-output "[1,0]<stdout>:"
// before the line and again wherever one write of the process ended inside it (a row's halves arrive in
// pieces), and srun --label's "0: " before it.
std::string withoutLauncherTags(std::string_view line) {
    if (const std::size_t colon = line.find(": ");
        colon != std::string_view::npos && colon > 0 &&
        line.substr(0, colon).find_first_not_of("0123456789") == std::string_view::npos)
        line.remove_prefix(colon + 2);
    std::string out;
    while (!line.empty()) {
        const std::size_t open = line.find('[');
        out += line.substr(0, open);
        if (open == std::string_view::npos) break;
        line.remove_prefix(open);
        bool tag = false;
        for (std::string_view end : {"]<stdout>:", "]<stderr>:"}) {
            const std::size_t at = line.find(end);
            if (at != std::string_view::npos && at > 1 &&
                line.substr(1, at - 1).find_first_not_of("0123456789,") == std::string_view::npos) {
                line.remove_prefix(at + end.size());
                out += ' '; // "-1[1,0]<stdout>:    85.70": the words on either side stay apart
                tag = true;
                break;
            }
        }
        if (!tag) {
            out += '[';
            line.remove_prefix(1);
        }
    }
    return out;
}

std::optional<std::int64_t> integer(std::string_view word) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return value;
}

std::optional<double> number(std::string_view word) {
    double value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return value;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isNumber(std::string_view word) {
    const std::size_t digit = word.front() == '-' || word.front() == '.' ? 1 : 0;
    if (word.size() <= digit || !isDigit(word[digit])) return false;
    double value = 0;
    return std::from_chars(word.data(), word.data() + word.size(), value).ptr == word.data() + word.size();
}

// A row begins with its size and count (a fragment of a row cut in two with two numbers too); a launcher's "1
// more process has sent help message ..." is no row.
bool beginsRow(const std::vector<std::string_view>& words) {
    return isNumber(words[0]) && (words.size() == 1 || isNumber(words[1]));
}

bool isName(std::string_view word) {
    return !word.empty() &&
           ((word.front() >= 'a' && word.front() <= 'z') || (word.front() >= 'A' && word.front() <= 'Z'));
}

bool startsWith(const std::vector<std::string_view>& words, std::initializer_list<std::string_view> start) {
    if (words.size() < start.size()) return false;
    std::size_t i = 0;
    for (std::string_view word : start)
        if (words[i++] != word) return false;
    return true;
}

std::int64_t wholeNumber(std::string_view word, const char* column) {
    if (const auto value = integer(word)) return *value;
    throw std::runtime_error(fmt::format("{} '{}' is not {}", column, word,
                                         number(word) ? "a whole number in range" : "a number"));
}

double decimal(std::string_view word, const char* column, const char* placement) {
    if (const auto value = number(word)) return *value;
    throw std::runtime_error(
        fmt::format("{} '{}' of the {} result is not a number", column, word, placement));
}

} // namespace

NcclTestsTableReader::NcclTestsTableReader(OutputContext context) : context_(std::move(context)) {}

void NcclTestsTableReader::beginRunIf(bool seen) {
    if (!seen && !header_written_) return;
    run_ = NcclTestsRun{};
    layout_ = Layout{};
    header_written_ = seen_version_ = seen_program_ = seen_settings_ = false;
    out_of_bounds_.reset();
}

void NcclTestsTableReader::readLine(std::string_view printed, std::vector<MetricRecord>& out) {
    const std::string text = withoutLauncherTags(printed);
    const std::string_view line = text;
    std::vector<std::string_view> words = wordsOf(line);
    if (words.empty()) return;
    if (words.front().front() == '#') {
        if (words.front().size() == 1)
            words.erase(words.begin());
        else
            words.front().remove_prefix(1);
        if (!words.empty()) readComment(line, words, out);
    } else if (beginsRow(words)) {
        readRow(line, std::move(words), out);
    }
}

// Lines from src/util.cu (v2.19.6); older releases print a subset:
//   # nccl-tests version 2.19.6 nccl-headers=22703 nccl-library=22703
//   # Collective test starting: all_reduce_perf
//   # nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1
//   validation: 1 graph: 0 unalign: 0 (one line)
//   #  Rank  0 Group  0 Pid  12345 on      node1 device  0 [0000:07:00] NVIDIA H100 80GB HBM3
//   #       size         count      type   redop    root     time   algbw   busbw  #wrong     time ...
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 76.4412
void NcclTestsTableReader::readComment(std::string_view line, const std::vector<std::string_view>& words,
                                       std::vector<MetricRecord>& out) {
    if (startsWith(words, {"nccl-tests", "version"}) && words.size() > 2) {
        beginRunIf(seen_version_);
        seen_version_ = true;
        run_.tool_version = std::string(words[2]);
        for (std::size_t i = 3; i < words.size(); ++i) {
            const std::string_view word = words[i];
            if (word.size() > 2 && word.front() == '(' && word.back() == ')')
                run_.tool_commit = std::string(word.substr(1, word.size() - 2));
            else if (word.substr(0, 13) == "nccl-library=")
                run_.nccl_version_code = integer(word.substr(13));
        }
    } else if (startsWith(words, {"Collective", "test", "starting:"}) && words.size() > 3) {
        beginRunIf(seen_program_);
        seen_program_ = true;
        run_.program = std::string(words[3]);
    } else if (words.front() == "nThread") {
        beginRunIf(seen_settings_);
        seen_settings_ = true;
        readSettings(words);
    } else if (words.front() == "Rank") {
        readDevice(line, words);
    } else if (startsWith(words, {"size", "count"})) {
        if (const std::optional<Layout> layout = layoutNamed(words)) {
            layout_ = *layout;
            run_.settings.cpu_time = layout->cpu_time;
        }
    } else if (startsWith(words, {"Reducing", "maxBytes", "to"}) && words.size() > 3) {
        if (const auto bytes = integer(words[3])) run_.settings.max_bytes = bytes;
    } else if (startsWith(words, {"Out", "of", "bounds", "values", ":"}) && words.size() > 5) {
        out_of_bounds_ = integer(words[5]);
    } else if (startsWith(words, {"Avg", "bus", "bandwidth", ":"}) && words.size() > 4) {
        const std::optional<double> busbw = number(words[4]);
        if (!busbw || !std::isfinite(*busbw)) {
            countBroken(line, fmt::format("the average bus bandwidth '{}' is not a number", words[4]));
            return;
        }
        if (!header_written_) out.push_back(ncclTestsHeader(run_, context_));
        header_written_ = true;
        out.push_back(ncclTestsSummary(*busbw, out_of_bounds_));
    }
}

void NcclTestsTableReader::readSettings(const std::vector<std::string_view>& words) {
    NcclTestsSettings& s = run_.settings;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        const std::string_view word = words[i];
        const std::string_view next = words[i + 1];
        if (word == "nThread") s.threads = integer(next);
        if (word == "nGpus") s.gpus_per_thread = integer(next);
        if (word == "minBytes") s.min_bytes = integer(next);
        if (word == "maxBytes") s.max_bytes = integer(next);
        if (word == "validation:") s.validation = integer(next);
        if (word == "graph:") s.cuda_graph = integer(next);
        if (word == "step:") { // "2(factor)" or "1048576(bytes)"
            const std::size_t open = next.find('(');
            const std::optional<std::int64_t> step = integer(next.substr(0, open));
            if (next.substr(open == std::string_view::npos ? next.size() : open) == "(factor)")
                s.step_factor = step;
            else if (next.substr(open == std::string_view::npos ? next.size() : open) == "(bytes)")
                s.step_bytes = step;
        }
        if (word == "iters:") {
            const std::string_view before = i > 0 ? words[i - 1] : std::string_view();
            (before == "warmup" ? s.warmup_iterations
             : before == "agg"  ? s.aggregated_iterations
                                : s.iterations) = integer(next);
        }
    }
}

// "Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s" (v2.14 on; v2.13: [0x%02x]; before
// v2.13 no Group; v1 neither Pid). A line garbled by another process's output is skipped.
void NcclTestsTableReader::readDevice(std::string_view line, const std::vector<std::string_view>& words) {
    NcclTestsDevice device;
    std::size_t i = 1;
    const auto take = [&](std::string_view name) -> std::optional<std::int64_t> {
        if (i + 1 >= words.size() || words[i] != name) return std::nullopt;
        i += 2;
        return integer(words[i - 1]);
    };
    if (i >= words.size()) return;
    const std::optional<std::int64_t> rank = integer(words[i++]);
    if (!rank || *rank < 0 || *rank > INT_MAX) return;
    device.rank = static_cast<int>(*rank);
    if (i < words.size() && words[i] == "Group") {
        const std::optional<std::int64_t> group = take("Group");
        if (!group || *group < INT_MIN || *group > INT_MAX) return;
        device.group = static_cast<int>(*group);
    }
    if (i < words.size() && words[i] == "Pid" && !(device.pid = take("Pid"))) return;
    if (i + 1 >= words.size() || words[i] != "on") return;
    device.host = std::string(words[i + 1]);
    i += 2;
    const std::optional<std::int64_t> cuda_device = take("device");
    if (!cuda_device || *cuda_device < 0 || *cuda_device > INT_MAX) return;
    device.device = static_cast<int>(*cuda_device);
    if (i < words.size() && words[i].front() == '[' && words[i].back() == ']') {
        device.bus_id = std::string(words[i].substr(1, words[i].size() - 2));
        ++i;
    }
    if (i < words.size()) {
        std::string_view gpu = line.substr(static_cast<std::size_t>(words[i].data() - line.data()));
        while (!gpu.empty() && isBlank(gpu.back()))
            gpu.remove_suffix(1);
        device.gpu = std::string(gpu);
    }
    if (header_written_) return; // the header is out: this is another process's output
    for (const NcclTestsDevice& known : run_.devices)
        if (known.rank == device.rank) return;
    run_.devices.push_back(std::move(device));
}

// "size count type redop root time algbw busbw #wrong time algbw busbw #wrong" (v2.13 on), with "i_min
// i_max i_p99 i_cv%" after each #wrong under -I 1 and "timestamp" last under -S 1; before v2.13 "error"
// for "#wrong", no root, and sendrecv without redop, broadcast with root instead.
std::optional<NcclTestsTableReader::Layout>
NcclTestsTableReader::layoutNamed(const std::vector<std::string_view>& names) {
    Layout layout;
    layout.redop = layout.root = -1;
    layout.out_of_place = layout.in_place = Layout::Half{};
    int column = 0;
    int half = -1;
    const auto current = [&]() -> Layout::Half* {
        return half == 0 ? &layout.out_of_place : half == 1 ? &layout.in_place : nullptr;
    };
    for (std::string_view name : names) {
        if (name == "size") layout.size = column;
        if (name == "count") layout.count = column;
        if (name == "type") layout.type = column;
        if (name == "redop") layout.redop = column;
        if (name == "root") layout.root = column;
        if (name == "time" || name == "cputime") {
            if (++half > 1) return std::nullopt;
            current()->time = column;
            layout.cpu_time = name == "cputime";
        }
        Layout::Half* h = current();
        if (name == "algbw" && h) h->algbw = column;
        if (name == "busbw" && h) h->busbw = column;
        if ((name == "#wrong" || name == "error") && h) {
            h->wrong = column;
            layout.max_deviation = name == "error";
        }
        if (name == "timestamp") ++column; // printed as date and time
        ++column;
    }
    layout.fields = column;
    for (const Layout::Half& h : {layout.out_of_place, layout.in_place})
        if (h.time < 0 || h.algbw < 0 || h.busbw < 0 || h.wrong < 0) return std::nullopt;
    if (names.size() < 3 || names[2] != "type") return std::nullopt;
    return layout;
}

//            8             2     float     sum      -1    42.56    0.00    0.00      0    41.85    0.00 ...
void NcclTestsTableReader::readRow(std::string_view line, std::vector<std::string_view> fields,
                                   std::vector<MetricRecord>& out) {
    const Layout& l = layout_;
    // hypercube_perf, and all-to-all before nccl-tests 2.13, print their redop as "": the row lacks that
    // field, and a number (the root, or the time) stands where it would.
    if (static_cast<int>(fields.size()) == l.fields - 1 && l.redop >= 0 &&
        static_cast<std::size_t>(l.redop) < fields.size() &&
        number(fields[static_cast<std::size_t>(l.redop)]))
        fields.insert(fields.begin() + l.redop, std::string_view());
    if (static_cast<int>(fields.size()) != l.fields) {
        countBroken(line, fmt::format("a row of {} fields where the table has {} (cut short, or mixed with "
                                      "other output?)",
                                      fields.size(), l.fields));
        return;
    }
    const auto at = [&](int column) { return fields[static_cast<std::size_t>(column)]; };
    try {
        NcclTestsRow row;
        row.size = wholeNumber(at(l.size), "size");
        row.count = wholeNumber(at(l.count), "count");
        row.type = std::string(at(l.type));
        if (!isName(row.type)) throw std::runtime_error(fmt::format("type '{}' is not a type", row.type));
        if (l.redop >= 0) {
            row.redop = std::string(at(l.redop));
            if (!row.redop.empty() && !isName(row.redop))
                throw std::runtime_error(fmt::format("redop '{}' is not a reduction", row.redop));
        }
        if (l.root >= 0) wholeNumber(at(l.root), "root");
        const auto half = [&](const Layout::Half& h, const char* placement) {
            NcclTestsMeasurement m;
            m.time_us = decimal(at(h.time), l.cpu_time ? "cputime" : "time", placement);
            m.algbw_gbps = decimal(at(h.algbw), "algbw", placement);
            m.busbw_gbps = decimal(at(h.busbw), "busbw", placement);
            m.max_deviation = l.max_deviation;
            if (at(h.wrong) != "N/A")
                m.wrong = decimal(at(h.wrong), l.max_deviation ? "error" : "#wrong", placement);
            return m;
        };
        row.out_of_place = half(l.out_of_place, "out-of-place");
        row.in_place = half(l.in_place, "in-place");
        std::vector<CollectiveRecord> records = ncclTestsRecords(row, run_, context_);
        if (!header_written_) out.push_back(ncclTestsHeader(run_, context_));
        header_written_ = true;
        for (CollectiveRecord& record : records)
            out.push_back(std::move(record));
    } catch (const std::runtime_error& e) {
        countBroken(line, e.what());
    }
}

} // namespace scalebench
