// Reads OSU Micro-Benchmarks' blocking collective latency tables as collective records.
#include "osu_output.h"

#include "bus_bandwidth.h"
#include "printed_figures.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace scalebench {
namespace {

// What OSU's "Size" is, per benchmark, read in OMB 7.4's c/mpi/collective/blocking/ (OMB 5.3's
// mpi/collective/ agrees), against nccl-tests' convention (src/*.cu GetCollByteCount; its size column is
// max(send, receive bytes)):
// - osu_allreduce.c:129,164: num_elements = size / mpi_type_size; MPI_Allreduce(sendbuf, recvbuf,
//   num_elements, ...): Size is the buffer each rank holds, nccl-tests' all-reduce size.
// - osu_bcast.c:114,147 (MPI_Bcast(buffer, num_elements, ...)) and osu_reduce.c:132,178 (MPI_Reduce(sendbuf,
//   recvbuf, num_elements, ...)): the same.
// - osu_reduce_scatter.c:137,146-159,190: num_elements of the send buffer split into recvcounts (portion =
//   num_elements / numprocs, the remainder to the first ranks), MPI_Reduce_scatter(sendbuf, recvbuf,
//   recvcounts, ...): Size is the whole scattered buffer, nccl-tests' reduce-scatter size.
// - osu_allgather.c:98,124,160 (recvbuf holds max_message_size * numprocs; MPI_Allgather(sendbuf,
//   num_elements, ..., recvbuf, num_elements, ...)) and osu_alltoall.c:88,129,170 (MPI_Alltoall(sendbuf,
//   num_elements, ...), each rank's buffers max_message_size * numprocs): Size is one rank's block, the
//   gathered (exchanged) buffer nccl-tests counts is Size x ranks.
// OMB 5.3 fixes the datatype (no -T, no "# Datatype:" line): MPI_FLOAT for osu_allreduce.c:102,
// osu_reduce.c:105 and osu_reduce_scatter.c:127 (Size printed as size * sizeof(float)), MPI_CHAR for
// osu_allgather.c:96, osu_alltoall.c:99 and osu_bcast.c:86. OMB 7.1 brought -T and the "# Datatype:" line.
struct OsuCollective {
    std::string_view program;     // "osu_allreduce"
    std::string_view banner_word; // the word after "OSU MPI" in the banner: "Allreduce"
    std::string_view name;        // scalebench's: "allreduce"
    bool size_is_one_block;       // bytes = Size x ranks
    std::string_view fixed_dtype; // before OMB 7.1
};
constexpr std::array<OsuCollective, 6> kCollectives{{
    {"osu_allreduce", "Allreduce", "allreduce", false, "MPI_FLOAT"},
    {"osu_allgather", "Allgather", "allgather", true, "MPI_CHAR"},
    {"osu_reduce_scatter", "Reduce_scatter", "reducescatter", false, "MPI_FLOAT"},
    {"osu_bcast", "Broadcast", "broadcast", false, "MPI_CHAR"},
    {"osu_alltoall", "All-to-All", "alltoall", true, "MPI_CHAR"},
    {"osu_reduce", "Reduce", "reduce", false, "MPI_FLOAT"},
}};

const OsuCollective* collectiveNamed(std::string_view name) {
    for (const auto& c : kCollectives)
        if (c.name == name) return &c;
    return nullptr;
}

// The datatypes OMB 7.4's -T offers (c/util/osu_util_mpi.c omb_populate_mpi_type_list), by scalebench's
// names.
struct OsuDatatype {
    std::string_view mpi_name;
    std::string_view name;
    std::int64_t bytes;
};
constexpr std::array<OsuDatatype, 3> kDatatypes{{
    {"MPI_CHAR", "int8", 1},
    {"MPI_INT", "int32", 4},
    {"MPI_FLOAT", "float32", 4},
}};

const OsuDatatype* datatypeNamed(std::string_view mpi_name) {
    for (const auto& d : kDatatypes)
        if (d.mpi_name == mpi_name) return &d;
    return nullptr;
}

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// Splits at runs of blanks (a row) or, with `min_gap` 2, at runs of two or more blanks or a tab (a header,
// whose column names hold single spaces: "Avg Latency(us)").
std::vector<std::string_view> fields(std::string_view text, std::size_t min_gap) {
    std::vector<std::string_view> out;
    for (auto start = text.find_first_not_of(kBlanks); start != std::string_view::npos;) {
        std::size_t end = start;
        while (true) {
            const auto blank = text.find_first_of(kBlanks, end);
            const auto next = text.find_first_not_of(kBlanks, blank);
            if (blank == std::string_view::npos || next == std::string_view::npos ||
                next - blank >= min_gap || text[blank] == '\t') {
                end = blank == std::string_view::npos ? text.size() : blank;
                break;
            }
            end = next;
        }
        out.push_back(text.substr(start, end - start));
        start = text.find_first_not_of(kBlanks, end);
    }
    return out;
}

// The datatype's MPI name: OSU's "# Datatype:" line (`printed`); before OMB 7.1, the benchmark's fixed one;
// OMB 7's default after.
std::string_view mpiDatatype(std::string_view printed, std::string_view tool_version,
                             const OsuCollective& collective) {
    if (!printed.empty()) return printed;
    int major = 0;
    int minor = 0;
    const char* end = tool_version.data() + tool_version.size();
    const auto [dot, error] = std::from_chars(tool_version.data(), end, major);
    if (error == std::errc() && dot != end && *dot == '.') std::from_chars(dot + 1, end, minor);
    return major > 7 || (major == 7 && minor >= 1) ? "MPI_CHAR" : collective.fixed_dtype;
}

// What a row's cells gave: the figures its record is made from, and the decimals of its times.
struct OsuRowFigures {
    std::int64_t size = 0;
    double latency_us = 0;
    bool has_size = false;
    bool has_latency = false;
    int decimals = -1; // -1 before the table's first row
};

// A time cell (Avg, Min, Max, P99 Tail Lat(us)): a finite number, with any decimals; on the output's
// unterminated last line (`may_be_cut`), with the decimals of the table's other times (which the first one
// sets: OSU prints a table's times alike), else it was cut inside it. Returns why it is not, or "".
std::string readTime(const std::string& column, std::string_view value, int& row_decimals, bool may_be_cut,
                     double& figure) {
    if (!number(value, figure))
        return column + " " + shown(value) + " is not a" + (column == "Avg Latency(us)" ? " positive" : "") +
               " finite number";
    if (row_decimals < 0) row_decimals = decimals(value);
    if (may_be_cut && decimals(value) != row_decimals)
        return column + " " + shown(value) + " has not the " + std::to_string(row_decimals) +
               " decimals of the table's other times: the row was cut";
    return {};
}

// One cell by its column (`figure`: its number, where it is a time) into the row's figures or the record's
// repetitions and validation; other columns are not read. Returns why it cannot be, or "".
std::string readCell(const std::string& column, std::string_view value, double figure, OsuRowFigures& row,
                     CollectiveRecord& record) {
    if (column == "Size") {
        if (!wholeNumber(value, row.size) || row.size < 1)
            return "Size " + shown(value) + " is not a positive 64-bit byte count";
        row.has_size = true;
    } else if (column == "Avg Latency(us)") {
        row.latency_us = figure;
        if (row.latency_us <= 0)
            return "Avg Latency(us) " + shown(value) + " is not a positive finite number";
        row.has_latency = true;
    } else if (column == "Iterations") {
        std::int64_t iterations = 0;
        if (!wholeNumber(value, iterations) || iterations < 1 || iterations > std::numeric_limits<int>::max())
            return "Iterations " + shown(value) + " is not a positive int";
        record.repetitions = static_cast<int>(iterations);
    } else if (column == "Validation") {
        if (value != "Pass" && value != "Fail")
            return "Validation " + shown(value) + " is neither Pass nor Fail";
        record.checked = true;
        record.correct = value == "Pass";
    }
    return {};
}

// Every cell of a row, in the table's column order; the row needs a Size and an Avg Latency(us). Returns why
// it cannot be read, or "".
std::string readCells(const std::vector<std::string>& columns, const std::vector<std::string_view>& values,
                      bool may_be_cut, OsuRowFigures& row, CollectiveRecord& record) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string& column = columns[i];
        const std::string_view value = values[i];
        double figure = 0;
        if (column.find("(us)") != std::string::npos)
            if (std::string reason = readTime(column, value, row.decimals, may_be_cut, figure);
                !reason.empty())
                return reason;
        if (std::string reason = readCell(column, value, figure, row, record); !reason.empty()) return reason;
    }
    if (!row.has_size) return "the table's header names no Size column";
    if (!row.has_latency) return "the table's header names no Avg Latency(us) column";
    return {};
}

// OSU's Size in bytes of the whole buffer as nccl-tests counts it (kCollectives above); OSU times whole
// elements only (num_elements = size / mpi_type_size). Returns why there is none, or "".
std::string bufferBytes(std::int64_t size, const OsuDatatype& dtype, std::string_view mpi_dtype,
                        const OsuCollective& collective, int ranks, std::int64_t& bytes) {
    const std::int64_t elements = size / dtype.bytes;
    if (elements == 0) return "Size " + std::to_string(size) + " is less than one " + std::string(mpi_dtype);
    bytes = elements * dtype.bytes;
    if (collective.size_is_one_block && __builtin_mul_overflow(bytes, ranks, &bytes))
        return "Size " + std::to_string(size) + " x " + std::to_string(ranks) + " ranks overflows";
    return {};
}

} // namespace

OsuLatencyReader::OsuLatencyReader(OutputContext context) : context_(std::move(context)) {
    std::string_view program = context_.program;
    if (const auto slash = program.rfind('/'); slash != std::string_view::npos)
        program.remove_prefix(slash + 1);
    for (const auto& c : kCollectives)
        if (c.program == program) collective_ = c.name;
}

// OMB 7.4, osu_allreduce -f -c -T mpi_float at 2 ranks (OMB 5.3 prints no "# Datatype:" line, and a row has
// no Validation unless -c, no Min, Max and Iterations unless -f):
//
//   # OSU MPI Allreduce Latency Test v7.4
//   # Datatype: MPI_FLOAT.
//   # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations        Validation
//   4                       0.37              0.32              0.42         100              Pass
void OsuLatencyReader::readLine(std::string_view line, std::vector<MetricRecord>& out) {
    const std::string_view text = trimmed(line);
    if (text.empty()) return;
    if (text.front() == '#') {
        const std::string_view comment = trimmed(text.substr(1));
        if (startsWith(comment, "OSU MPI"))
            readBanner(comment);
        else if (startsWith(comment, "Datatype:"))
            readDatatype(trimmed(comment.substr(9)));
        else if (startsWith(comment, "Size ") || comment == "Size" ||
                 comment.find("(us)") != std::string_view::npos)
            readColumns(comment);
        return;
    }
    // A row starts with a digit, after its table's header; anything else is another line of output (Open
    // MPI's, another rank's, OSU's "DATA VALIDATION ERROR").
    if (columns_.empty() || text.front() < '0' || text.front() > '9') return;
    CollectiveRecord record;
    if (std::string reason = readRow(text, record); !reason.empty()) {
        countBroken(line, std::move(reason));
        return;
    }
    if (!header_written_) out.push_back(header(record));
    header_written_ = true;
    out.push_back(std::move(record));
}

// "OSU MPI Allreduce Latency Test v7.4"; "OSU MPI-CUDA ..." with -d cuda; a new banner is a new run.
void OsuLatencyReader::readBanner(std::string_view banner) {
    const auto version = banner.rfind(" v");
    const bool versioned = version != std::string_view::npos && version + 2 < banner.size() &&
                           banner[version + 2] >= '0' && banner[version + 2] <= '9';
    benchmark_ = trimmed(versioned ? banner.substr(0, version) : banner);
    tool_version_ = versioned ? trimmed(banner.substr(version + 2)) : std::string_view();
    const auto words = fields(benchmark_, 1);
    collective_.clear();
    for (const auto& c : kCollectives)
        if (words.size() > 2 && words[2] == c.banner_word) collective_ = c.name;
    mpi_dtype_.clear();
    columns_.clear();
    header_written_ = false;
}

// "MPI_CHAR." (OMB >= 7.1; with -T all, one before each datatype's table)
void OsuLatencyReader::readDatatype(std::string_view mpi_name) {
    if (!mpi_name.empty() && mpi_name.back() == '.') mpi_name.remove_suffix(1);
    mpi_dtype_ = trimmed(mpi_name);
}

// "Size       Avg Latency(us)   Min Latency(us) ..."
void OsuLatencyReader::readColumns(std::string_view header) {
    columns_.clear();
    decimals_ = -1;
    for (const auto column : fields(header, 2))
        columns_.emplace_back(column);
}

std::string OsuLatencyReader::readRow(std::string_view row, CollectiveRecord& record) {
    const OsuCollective* collective = collectiveNamed(collective_);
    if (collective == nullptr)
        return benchmark_.empty()
                   ? "no OSU banner, and program " + shown(context_.program) +
                         " is not an OSU collective benchmark scalebench reads"
                   : shown(benchmark_) + " is not an OSU collective benchmark scalebench reads";
    if (context_.ranks < 1)
        return "OSU prints no rank count: give the processes it ran on (import --ranks N), without which "
               "its bus bandwidth is unknown";
    const std::string_view mpi_dtype = mpiDatatype(mpi_dtype_, tool_version_, *collective);
    const OsuDatatype* dtype = datatypeNamed(mpi_dtype);
    if (dtype == nullptr) return "datatype " + shown(mpi_dtype) + " is not one OSU's -T offers";

    const auto values = fields(row, 1);
    if (values.size() != columns_.size())
        return std::to_string(values.size()) + " fields where the table's header names " +
               std::to_string(columns_.size());
    OsuRowFigures figures;
    figures.decimals = decimals_;
    record = CollectiveRecord{};
    record.checked = false;
    if (std::string reason = readCells(columns_, values, lineIsUnterminated(), figures, record);
        !reason.empty())
        return reason;
    std::int64_t bytes = 0;
    if (std::string reason = bufferBytes(figures.size, *dtype, mpi_dtype, *collective, context_.ranks, bytes);
        !reason.empty())
        return reason;

    record.collective = collective->name;
    record.dtype = dtype->name;
    record.backend = "mpi";
    record.op = "sum"; // OSU's reductions are MPI_SUM; the engine writes no op for the others and reads "sum"
    record.in_place = false; // OSU's -l (MPI_IN_PLACE) shows nowhere in its output
    record.elements = bytes / dtype->bytes;
    record.bytes = bytes;
    record.ranks = context_.ranks;
    // Each rank's mean per call, summed over ranks and divided by numprocs (osu_allreduce.c:187-195, each
    // benchmark alike): the mean across ranks, as nccl-tests' time.
    record.time_s = figures.latency_us * 1e-6;
    record.algbw_gbps = static_cast<double>(bytes) / record.time_s / 1e9;
    if (!std::isfinite(record.algbw_gbps))
        return "Avg Latency(us) " + std::to_string(figures.latency_us) + " gives no finite bandwidth";
    record.busbw_gbps = record.algbw_gbps * busBandwidthFactor(record.collective, record.ranks);
    record.tool = "osu";
    decimals_ = figures.decimals;
    return {};
}

// The run's header, written before its first row: what ran, as far as OSU's output says.
HeaderRecord OsuLatencyReader::header(const CollectiveRecord& first) const {
    HeaderRecord h;
    h.version = kMetricStreamVersion;
    h.workload = "osu";
    h.dataset = "";
    h.ranks = context_.ranks;
    h.steps = 0;
    const nlohmann::ordered_json json = {
        {"type", "header"},        {"version", h.version},           {"workload", h.workload},
        {"tool", "osu"},           {"program", context_.program},    {"tool_version", tool_version_},
        {"benchmark", benchmark_}, {"collective", first.collective}, {"dtype", first.dtype},
        {"ranks", h.ranks}};
    // The banner's bytes may be anything: ones that are not UTF-8 are replaced, not thrown at.
    h.json = json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    return h;
}

} // namespace scalebench
