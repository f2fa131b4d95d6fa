// Specification of the OSU Micro-Benchmarks reader: the recorded output of OMB 7.4 and 5.3 (tests/data/osu)
// as collective records in nccl-tests' convention, and every damaged line counted, never fatal.
#include "bus_bandwidth.h"
#include "file_text.h"
#include "osu_output.h"
#include "reading_in_chunks.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

using namespace scalebench;

namespace {

const std::filesystem::path kFixtures = SCALEBENCH_SOURCE_DIR "/tests/data/osu";

using Read = ReadText;

// Feeds `text` in chunks of `chunk` bytes (0: all at once), then finishes.
Read readOsu(const std::string& text, const std::string& program, int ranks, std::size_t chunk = 0) {
    OsuLatencyReader reader(OutputContext{ranks, program});
    Read read = readInChunks(reader, text, chunk);
    REQUIRE(read.broken_count == static_cast<std::int64_t>(read.broken.size()));
    return read;
}

std::vector<CollectiveRecord> collectives(const Read& read) {
    std::vector<CollectiveRecord> out;
    for (const auto& r : read.records)
        if (const auto* c = std::get_if<CollectiveRecord>(&r)) out.push_back(*c);
    return out;
}

std::vector<HeaderRecord> headers(const Read& read) {
    std::vector<HeaderRecord> out;
    for (const auto& r : read.records)
        if (const auto* h = std::get_if<HeaderRecord>(&r)) out.push_back(*h);
    return out;
}

// A row as OSU printed it, and what it becomes.
struct Row {
    std::int64_t osu_size;  // OSU's Size column
    std::int64_t bytes;     // nccl-tests' bytes
    double avg_us;          // Avg Latency(us)
    int repetitions;        // Iterations (-f), else 0
    const char* validation; // "Pass", "Fail" (-c), else ""
};

struct Fixture {
    const char* file; // under tests/data/osu; its name says the program and the launcher's ranks
    const char* collective;
    const char* dtype;
    std::size_t rows;
    Row first;
    Row last;
    const char* last_dtype = nullptr; // where the last row's differs (-T all)
};

// Each recorded output's first and last row, copied from the file; bytes = Size x 2 ranks for all-gather and
// all-to-all (Size is one rank's block there), Size for the others.
const Fixture kRecorded[] = {
    {"osu_allreduce-n2.txt", "allreduce", "int8", 21, {1, 1, 0.38, 0, ""}, {1048576, 1048576, 559.00, 0, ""}},
    {"osu_allreduce-n2-full.txt",
     "allreduce",
     "int8",
     21,
     {1, 1, 0.37, 1000, ""},
     {1048576, 1048576, 696.94, 100, ""}},
    {"osu_allreduce-n2-validated.txt",
     "allreduce",
     "int8",
     5,
     {1, 1, 0.38, 0, "Pass"},
     {16, 16, 0.39, 0, "Fail"}},
    {"osu_allreduce-n2-sweep.txt",
     "allreduce",
     "int8",
     21,
     {4, 4, 0.69, 0, ""},
     {4194304, 4194304, 3973.74, 0, ""}},
    {"osu_allreduce-n2-float.txt",
     "allreduce",
     "float32",
     19,
     {4, 4, 0.41, 0, ""},
     {1048576, 1048576, 636.46, 0, ""}},
    {"osu_allreduce-n2-sweep-float-full-validated.txt",
     "allreduce",
     "float32",
     21,
     {4, 4, 0.37, 100, "Pass"},
     {4194304, 4194304, 1618.21, 100, "Pass"}},
    {"osu_allreduce-n2-all-types.txt",
     "allreduce",
     "int8",
     47,
     {1, 1, 0.36, 0, ""},
     {65536, 65536, 16.28, 0, ""},
     "float32"},
    {"osu_allgather-n2.txt", "allgather", "int8", 21, {1, 2, 0.38, 0, ""}, {1048576, 2097152, 295.84, 0, ""}},
    {"osu_allgather-n2-full.txt",
     "allgather",
     "int8",
     21,
     {1, 2, 0.42, 1000, ""},
     {1048576, 2097152, 226.11, 100, ""}},
    {"osu_allgather-n2-validated.txt",
     "allgather",
     "int8",
     21,
     {1, 2, 14.56, 0, "Pass"},
     {1048576, 2097152, 917.47, 0, "Pass"}},
    {"osu_reduce_scatter-n2.txt",
     "reducescatter",
     "int8",
     21,
     {1, 1, 0.37, 0, ""},
     {1048576, 1048576, 789.56, 0, ""}},
    {"osu_reduce_scatter-n2-full.txt",
     "reducescatter",
     "int8",
     21,
     {1, 1, 0.39, 1000, ""},
     {1048576, 1048576, 482.24, 100, ""}},
    {"osu_reduce_scatter-n2-validated.txt",
     "reducescatter",
     "int8",
     6,
     {1, 1, 0.37, 0, "Pass"},
     {32, 32, 2.40, 0, "Fail"}},
    {"osu_bcast-n2.txt", "broadcast", "int8", 21, {1, 1, 0.32, 0, ""}, {1048576, 1048576, 49.14, 0, ""}},
    {"osu_bcast-n2-full.txt",
     "broadcast",
     "int8",
     21,
     {1, 1, 0.34, 1000, ""},
     {1048576, 1048576, 52.02, 100, ""}},
    {"osu_bcast-n2-validated.txt",
     "broadcast",
     "int8",
     21,
     {1, 1, 2.36, 0, "Pass"},
     {1048576, 1048576, 306.70, 0, "Pass"}},
    {"osu_alltoall-n2.txt", "alltoall", "int8", 21, {1, 2, 0.41, 0, ""}, {1048576, 2097152, 753.53, 0, ""}},
    {"osu_alltoall-n2-full.txt",
     "alltoall",
     "int8",
     21,
     {1, 2, 0.35, 1000, ""},
     {1048576, 2097152, 413.10, 100, ""}},
    {"osu_alltoall-n2-validated.txt",
     "alltoall",
     "int8",
     21,
     {1, 2, 8.49, 0, "Pass"},
     {1048576, 2097152, 1456.72, 0, "Pass"}},
    {"osu_reduce-n2.txt", "reduce", "int8", 21, {1, 1, 0.31, 0, ""}, {1048576, 1048576, 132.44, 0, ""}},
    {"osu_reduce-n2-full.txt",
     "reduce",
     "int8",
     21,
     {1, 1, 0.32, 1000, ""},
     {1048576, 1048576, 214.45, 100, ""}},
    {"osu_reduce-n2-validated.txt", "reduce", "int8", 5, {1, 1, 0.31, 0, "Pass"}, {16, 16, 0.30, 0, "Fail"}},
    // OMB 5.3: no "# Datatype:" line; its osu_allreduce sums MPI_FLOAT and prints Size as floats x 4.
    {"omb-5.3/osu_allreduce-n2.txt",
     "allreduce",
     "float32",
     19,
     {4, 4, 0.36, 0, ""},
     {1048576, 1048576, 191.98, 0, ""}},
    {"omb-5.3/osu_allreduce-n2-full.txt",
     "allreduce",
     "float32",
     19,
     {4, 4, 0.39, 1000, ""},
     {1048576, 1048576, 190.49, 100, ""}},
    {"omb-5.3/osu_allreduce-n2-sweep.txt",
     "allreduce",
     "float32",
     21,
     {4, 4, 0.35, 0, ""},
     {4194304, 4194304, 955.23, 0, ""}},
};

// "osu_allgather-n2-full.txt" -> {"osu_allgather", 2}
std::pair<std::string, int> launch(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    const auto dash = name.find("-n");
    return {name.substr(0, dash), std::stoi(name.substr(dash + 2))};
}

void checkRow(const CollectiveRecord& c, const Row& row, const Fixture& f, const char* dtype) {
    INFO(f.file << ", OSU Size " << row.osu_size);
    CHECK(c.collective == f.collective);
    CHECK(c.dtype == dtype);
    CHECK(c.bytes == row.bytes);
    CHECK(c.elements == row.bytes / (c.dtype == "int8" ? 1 : 4));
    CHECK(c.ranks == 2);
    CHECK(c.time_s == Approx(row.avg_us * 1e-6));
    CHECK(c.algbw_gbps == Approx(row.bytes / (row.avg_us * 1e-6) / 1e9));
    CHECK(c.busbw_gbps == Approx(c.algbw_gbps * busBandwidthFactor(f.collective, 2)));
    CHECK(c.repetitions == row.repetitions);
    CHECK(c.checked == (std::string(row.validation) != ""));
    CHECK(c.correct == (std::string(row.validation) == "Pass"));
    CHECK(c.backend == "mpi");
    CHECK(c.tool == "osu");
    CHECK(c.op == "sum");
    CHECK_FALSE(c.in_place);
}

const char* const kAllreduceTable = "\n"
                                    "# OSU MPI Allreduce Latency Test v7.4\n"
                                    "# Datatype: MPI_FLOAT.\n"
                                    "# Size       Avg Latency(us)\n"
                                    "4                       0.37\n"
                                    "1048576              1407.56\n";

const char* const kFullTable =
    "\n"
    "# OSU MPI Allreduce Latency Test v7.4\n"
    "# Datatype: MPI_FLOAT.\n"
    "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
    "4                       0.37              0.32              0.42         100\n"
    "1048576              1407.56           1321.09           1494.02         100\n";

} // namespace

TEST_CASE("every recorded OSU output reads whole: a header, then one record per row, first and last row as "
          "printed",
          "[core][osu]") {
    std::set<std::string> listed;
    for (const auto& f : kRecorded) {
        listed.insert(f.file);
        const auto [program, ranks] = launch(f.file);
        const Read read = readOsu(fileText(kFixtures / f.file), program, ranks);
        INFO(f.file);
        CHECK(read.broken.empty());
        REQUIRE(read.records.size() == f.rows + 1);
        REQUIRE(std::holds_alternative<HeaderRecord>(read.records.front()));
        const auto rows = collectives(read);
        REQUIRE(rows.size() == f.rows);
        checkRow(rows.front(), f.first, f, f.dtype);
        checkRow(rows.back(), f.last, f, f.last_dtype != nullptr ? f.last_dtype : f.dtype);
    }
    // Every file of the folder is read: the 1-rank runs (OSU refuses them: an empty stdout) and stderr give
    // nothing, and nothing broken. (public/ holds outputs people published, named by their source: read by
    // tests/control/test_import_public_logs.cpp.)
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kFixtures)) {
        const auto relative = entry.path().lexically_relative(kFixtures).generic_string();
        if (!entry.is_regular_file() || entry.path().extension() != ".txt" || listed.count(relative) ||
            relative.starts_with("public/"))
            continue;
        INFO(relative);
        const auto [program, ranks] = launch(entry.path());
        CHECK(ranks == 1);
        const Read read = readOsu(fileText(entry.path()), program, ranks);
        CHECK(read.records.empty());
        CHECK(read.broken.empty());
    }
}

TEST_CASE(
    "the header says what ran: tool, program, OMB version, benchmark, datatype and the launcher's ranks",
    "[core][osu]") {
    const Read read =
        readOsu(fileText(kFixtures / "osu_allreduce-n2-sweep-float-full-validated.txt"), "osu_allreduce", 2);
    const auto h = headers(read);
    REQUIRE(h.size() == 1);
    CHECK(h[0].version == 1);
    CHECK(h[0].workload == "osu");
    CHECK(h[0].dataset == "");
    CHECK(h[0].ranks == 2);
    CHECK(h[0].steps == 0);
    CHECK(h[0].json ==
          R"({"type":"header","version":1,"workload":"osu","tool":"osu","program":"osu_allreduce",)"
          R"("tool_version":"7.4","benchmark":"OSU MPI Allreduce Latency Test",)"
          R"("collective":"allreduce","dtype":"float32","ranks":2})");

    const auto old =
        headers(readOsu(fileText(kFixtures / "omb-5.3/osu_allreduce-n2.txt"), "osu_allreduce", 2));
    REQUIRE(old.size() == 1);
    CHECK_THAT(old[0].json,
               Catch::Contains(R"("tool_version":"5.3")") && Catch::Contains(R"("dtype":"float32")"));
}

TEST_CASE("with -T all each table takes the datatype of the '# Datatype:' line above it", "[core][osu]") {
    const auto rows =
        collectives(readOsu(fileText(kFixtures / "osu_allreduce-n2-all-types.txt"), "osu_allreduce", 2));
    REQUIRE(rows.size() == 47);
    // MPI_CHAR from 1 B (17 rows); MPI_INT and MPI_FLOAT from 4 B, one element (15 rows each).
    CHECK(rows[16].dtype == "int8");
    CHECK(rows[16].elements == 65536);
    CHECK(rows[17].dtype == "int32");
    CHECK(rows[17].bytes == 4);
    CHECK(rows[17].elements == 1);
    CHECK(rows[32].dtype == "float32");
    CHECK(rows[46].elements == 16384);
}

TEST_CASE("a failed validation is a checked, incorrect row, and OSU's error line after it is not a row",
          "[core][osu]") {
    const Read read =
        readOsu(fileText(kFixtures / "osu_reduce_scatter-n2-validated.txt"), "osu_reduce_scatter", 2);
    CHECK(read.broken.empty());
    const auto rows = collectives(read);
    REQUIRE(rows.size() == 6);
    CHECK(rows[4].checked);
    CHECK(rows[4].correct);
    CHECK(rows[5].checked);
    CHECK_FALSE(rows[5].correct);
}

TEST_CASE("OSU's Size becomes nccl-tests' bytes: one rank's block x ranks for all-gather and all-to-all, the "
          "whole buffer for the others",
          "[core][osu]") {
    // No banner: the program name says which benchmark ran.
    const std::string table =
        "# Datatype: MPI_INT.\n# Size       Avg Latency(us)\n4096                   10.00\n";
    struct Case {
        const char* program;
        const char* collective;
        int ranks;
        std::int64_t bytes;
        double busbw_factor;
    };
    for (const Case& c :
         {Case{"osu_allreduce", "allreduce", 4, 4096, 1.5}, Case{"osu_reduce", "reduce", 4, 4096, 1.0},
          Case{"osu_bcast", "broadcast", 4, 4096, 1.0},
          Case{"osu_reduce_scatter", "reducescatter", 4, 4096, 0.75},
          Case{"osu_allgather", "allgather", 4, 16384, 0.75},
          Case{"osu_alltoall", "alltoall", 4, 16384, 0.75},
          Case{"osu_allgather", "allgather", 2, 8192, 0.5}}) {
        INFO(c.program << " at " << c.ranks << " ranks");
        const auto rows = collectives(readOsu(table, c.program, c.ranks));
        REQUIRE(rows.size() == 1);
        CHECK(rows[0].collective == c.collective);
        CHECK(rows[0].bytes == c.bytes);
        CHECK(rows[0].elements == c.bytes / 4);
        CHECK(rows[0].algbw_gbps == Approx(c.bytes / 10e-6 / 1e9));
        CHECK(rows[0].busbw_gbps == Approx(rows[0].algbw_gbps * c.busbw_factor));
    }
}

TEST_CASE("the banner names the collective where the program name does not, and wins over it",
          "[core][osu]") {
    const std::string bcast = "# OSU MPI Broadcast Latency Test v7.4\n# Datatype: MPI_CHAR.\n"
                              "# Size       Avg Latency(us)\n8                       1.00\n";
    CHECK(collectives(readOsu(bcast, "run-osu.sh", 2)).at(0).collective == "broadcast");
    CHECK(collectives(readOsu(bcast, "osu_allreduce", 2)).at(0).collective == "broadcast");
    CHECK(collectives(readOsu(bcast, "/opt/omb/osu_bcast", 2)).at(0).collective == "broadcast");

    const Read barrier =
        readOsu("# OSU MPI Barrier Latency Test v7.4\n# Avg Latency(us)\n1.00\n", "osu_barrier", 2);
    CHECK(barrier.records.empty());
    REQUIRE(barrier.broken.size() == 1);
    CHECK(barrier.broken[0].reason ==
          "'OSU MPI Barrier Latency Test' is not an OSU collective benchmark scalebench reads");
}

TEST_CASE("before OMB 7.1 the datatype is the benchmark's fixed one: MPI_FLOAT for reductions, MPI_CHAR else",
          "[core][osu]") {
    const auto row = [](const std::string& banner, const std::string& program) {
        return collectives(readOsu(banner + "\n# Size       Avg Latency(us)\n8                       1.00\n",
                                   program, 2))
            .at(0);
    };
    CHECK(row("# OSU MPI Reduce_scatter Latency Test v5.3", "osu_reduce_scatter").dtype == "float32");
    CHECK(row("# OSU MPI Reduce Latency Test v5.3", "osu_reduce").dtype == "float32");
    CHECK(row("# OSU MPI Broadcast Latency Test v5.3", "osu_bcast").dtype == "int8");
    CHECK(row("# OSU MPI All-to-All Personalized Exchange Latency Test v5.3", "osu_alltoall").dtype ==
          "int8");
    CHECK(row("# OSU MPI Allgather Latency Test v5.3", "osu_allgather").elements == 16);
    CHECK(row("# OSU MPI Allreduce Latency Test v5.3", "osu_allreduce").elements == 2);
    CHECK(row("# OSU MPI Allreduce Latency Test v7.4", "osu_allreduce").dtype ==
          "int8"); // line missing: 7.4's default
}

TEST_CASE("the bus bandwidth factor is nccl-tests', 0 at 1 rank for all but broadcast and reduce",
          "[core][osu]") {
    CHECK(busBandwidthFactor("allreduce", 1) == 0);
    CHECK(busBandwidthFactor("allreduce", 2) == 1);
    CHECK(busBandwidthFactor("allgather", 1) == 0);
    CHECK(busBandwidthFactor("allgather", 2) == 0.5);
    CHECK(busBandwidthFactor("reducescatter", 2) == 0.5);
    CHECK(busBandwidthFactor("alltoall", 2) == 0.5);
    CHECK(busBandwidthFactor("broadcast", 1) == 1);
    CHECK(busBandwidthFactor("reduce", 1) == 1);
    CHECK_THROWS_WITH(busBandwidthFactor("allreduce", 0), Catch::Contains("0 ranks"));

    // A 1-rank row (OSU itself refuses to run on one) has no bus bandwidth; a non-positive count no row at
    // all.
    const auto one = collectives(readOsu(kFullTable, "osu_allreduce", 1));
    REQUIRE(one.size() == 2);
    CHECK(one[0].algbw_gbps == Approx(4 / 0.37e-6 / 1e9));
    CHECK(one[0].busbw_gbps == 0);
    const Read none = readOsu(kAllreduceTable, "osu_allreduce", 0);
    CHECK(none.records.empty());
    REQUIRE(none.broken.size() == 2);
    CHECK_THAT(none.broken[0].reason,
               Catch::StartsWith("OSU prints no rank count") && Catch::Contains("import --ranks N"));
}

TEST_CASE("chunks give what the whole output gives", "[core][osu]") {
    for (const auto& f : kRecorded) {
        INFO(f.file);
        const auto [program, ranks] = launch(f.file);
        const std::string text = fileText(kFixtures / f.file);
        const auto whole = readOsu(text, program, ranks).records;
        for (std::size_t chunk : {1, 7, 4096})
            CHECK(readOsu(text, program, ranks, chunk).records == whole);
    }
}

TEST_CASE("CRLF line ends read as LF", "[core][osu]") {
    std::string crlf;
    for (const char c : std::string(kAllreduceTable))
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const Read read = readOsu(crlf, "osu_allreduce", 2);
    CHECK(read.broken.empty());
    CHECK(read.records == readOsu(kAllreduceTable, "osu_allreduce", 2).records);
}

TEST_CASE("a last row cut short is broken, however it was cut", "[core][osu]") {
    // Inside its time, told by the precision: OSU prints every time of a table with the same (%.2f).
    for (const std::string cut : {"1048576", "1048576              1407.5", "1048576              1407.",
                                  "1048576              14"}) {
        INFO(cut);
        const std::string whole = kAllreduceTable;
        const Read read = readOsu(whole.substr(0, whole.rfind("1048576")) + cut, "osu_allreduce", 2);
        CHECK(collectives(read).size() == 1);
        REQUIRE(read.broken.size() == 1);
        CHECK(read.broken[0].line_number == 6);
    }
    // Without its last fields.
    for (const std::string cut : {"1048576              1407.56           1321.09",
                                  "1048576              1407.56           1321.09           1494.0"}) {
        INFO(cut);
        const std::string whole = kFullTable;
        const Read read = readOsu(whole.substr(0, whole.rfind("1048576")) + cut, "osu_allreduce", 2);
        CHECK(collectives(read).size() == 1);
        REQUIRE(read.broken.size() == 1);
    }
    // Cut inside Iterations, the row cannot tell: it keeps its figures.
    const std::string full = kFullTable;
    const auto rows = collectives(readOsu(full.substr(0, full.size() - 2), "osu_allreduce", 2));
    REQUIRE(rows.size() == 2);
    CHECK(rows[1].repetitions == 10);
}

TEST_CASE("a whole row reads with any decimals: only the unterminated last row is told cut by them",
          "[core][osu]") {
    const std::string three = "\n# OSU MPI Allreduce Latency Test v7.4\n# Datatype: MPI_FLOAT.\n"
                              "# Size       Avg Latency(us)\n4                       0.37\n"
                              "1048576              1407.561\n";
    const Read read = readOsu(three, "osu_allreduce", 2);
    CHECK(read.broken.empty());
    REQUIRE(collectives(read).size() == 2);
    CHECK(collectives(read)[1].time_s == Approx(1407.561e-6));
}

TEST_CASE("other processes' lines are skipped, and a row they cut in two is broken in both halves",
          "[core][osu]") {
    const std::string text =
        "[node1:04242] mca_base_component_repository_open: unable to open mca_btl_openib\n"
        "\n# OSU MPI Allreduce Latency Test v7.4\n"
        "rank 1: hello\n"
        "# Datatype: MPI_FLOAT.\n"
        "# Size       Avg Latency(us)\n"
        "4                       0.37\n"
        "--------------------------------------------------------------------------\n"
        "8                       0.39\n"
        "16              [node1:04243] warning: something\n"
        "        0.40\n"
        "32                      0.41\n"
        "DATA VALIDATION ERROR: osu_allreduce exited with status 1 on message size 64.\n"
        "#\n"
        "#  \n";
    const Read read = readOsu(text, "osu_allreduce", 2);
    const auto rows = collectives(read);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].bytes == 4);
    CHECK(rows[1].bytes == 8);
    CHECK(rows[2].bytes == 32);
    REQUIRE(read.broken.size() == 2);
    CHECK(read.broken[0].line_number == 10);
    CHECK(read.broken[0].reason == "4 fields where the table's header names 2");
    CHECK(read.broken[1].line_number == 11);
    CHECK(read.broken[1].reason == "1 fields where the table's header names 2");
}

TEST_CASE("numbers beyond their type make the row broken, never a wrapped or infinite figure",
          "[core][osu]") {
    const std::string head = "# OSU MPI Allgather Latency Test v7.4\n# Datatype: MPI_CHAR.\n"
                             "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n";
    struct Case {
        std::string row;
        std::string reason;
    };
    for (const Case& c : {
             Case{"1e400                   1.00              1.00              1.00        1000",
                  "Size '1e400' is not a positive 64-bit byte count"},
             Case{"99999999999999999999    1.00              1.00              1.00        1000",
                  "Size '99999999999999999999' is not a positive 64-bit byte count"},
             Case{"0                       1.00              1.00              1.00        1000",
                  "Size '0' is not a positive 64-bit byte count"},
             Case{"8                      1e400              1.00              1.00        1000",
                  "Avg Latency(us) '1e400' is not a positive finite number"},
             Case{"8                        nan              1.00              1.00        1000",
                  "Avg Latency(us) 'nan' is not a positive finite number"},
             Case{"8                       0.00              0.00              0.00        1000",
                  "Avg Latency(us) '0.00' is not a positive finite number"},
             Case{"8                       1.00              1.00             1e400        1000",
                  "Max Latency(us) '1e400' is not a finite number"},
             Case{"8                       1.00              1.00              1.00  9999999999",
                  "Iterations '9999999999' is not a positive int"},
             // Size x ranks beyond 64 bits (all-gather's buffer is every rank's block).
             Case{"4611686018427387904     1.00              1.00              1.00        1000",
                  "Size 4611686018427387904 x 3 ranks overflows"},
         }) {
        INFO(c.row);
        const Read read = readOsu(head + c.row + "\n", "osu_allgather", 3);
        CHECK(read.records.empty());
        REQUIRE(read.broken.size() == 1);
        CHECK(read.broken[0].reason == c.reason);
    }
    // The largest whole buffer that fits: Size 2^62 at 1 rank.
    const auto big = collectives(
        readOsu(head + "4611686018427387904     1.00              1.00              1.00        1000\n",
                "osu_allgather", 1));
    REQUIRE(big.size() == 1);
    CHECK(big[0].bytes == 4611686018427387904);
}

TEST_CASE("two benchmarks in one output (a job script running both) give a header each, each run its own "
          "collective",
          "[core][osu]") {
    const std::string text =
        fileText(kFixtures / "osu_allreduce-n2-full.txt") + fileText(kFixtures / "osu_bcast-n2.txt");
    const Read read = readOsu(text, "job.sh", 2);
    CHECK(read.broken.empty());
    REQUIRE(read.records.size() == 1 + 21 + 1 + 21);
    REQUIRE(std::holds_alternative<HeaderRecord>(read.records[22]));
    CHECK_THAT(std::get<HeaderRecord>(read.records[22]).json,
               Catch::Contains(R"("benchmark":"OSU MPI Broadcast Latency Test")"));
    CHECK(std::get<CollectiveRecord>(read.records[21]).collective == "allreduce");
    CHECK(std::get<CollectiveRecord>(read.records[23]).collective == "broadcast");
    CHECK(std::get<CollectiveRecord>(read.records[23]).repetitions == 0);
}
