// Specification of the nccl-tests readers: its text table (every layout) and its JSON file, read as they
// grow, become the records of the engine's collective sweep.
//
// Fixtures (tests/data/nccl-tests, README.md there): real output people pasted into public issues, and where
// no pasted output shows a case (the JSON file; -c 0 -I 1 -S 1), output constructed with the printf formats
// of NVIDIA/nccl-tests' src/util.cu and src/common.cu at a0b82b2 (NCCL_TESTS_VERSION 2.19.6). Inputs written
// in a test below follow the same formats.
#include "file_text.h"
#include "metric_stream_parser.h"
#include "nccl_tests_json_reader.h"
#include "nccl_tests_table_reader.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace scalebench;

namespace {

std::string fixture(const std::string& name) {
    const std::string text = fileText(SCALEBENCH_SOURCE_DIR "/tests/data/nccl-tests/" + name);
    REQUIRE(!text.empty());
    return text;
}

struct Read {
    std::vector<MetricRecord> records;
    std::vector<BrokenLine> broken;
    std::int64_t broken_count = 0;
    std::int64_t lines = 0;

    std::vector<CollectiveRecord> collectives() const {
        std::vector<CollectiveRecord> out;
        for (const MetricRecord& r : records)
            if (const auto* c = std::get_if<CollectiveRecord>(&r)) out.push_back(*c);
        return out;
    }
    std::vector<HeaderRecord> headers() const {
        std::vector<HeaderRecord> out;
        for (const MetricRecord& r : records)
            if (const auto* h = std::get_if<HeaderRecord>(&r)) out.push_back(*h);
        return out;
    }
    std::vector<SummaryRecord> summaries() const {
        std::vector<SummaryRecord> out;
        for (const MetricRecord& r : records)
            if (const auto* s = std::get_if<SummaryRecord>(&r)) out.push_back(*s);
        return out;
    }
};

// Feeds `text` in chunks of `chunk` bytes (0: at once), then finishes.
template <typename Reader>
Read readAll(const std::string& text, OutputContext context = {}, std::size_t chunk = 0) {
    Reader reader(std::move(context));
    Read read;
    const auto take = [&](std::vector<MetricRecord> records) {
        read.records.insert(read.records.end(), records.begin(), records.end());
    };
    if (chunk == 0) chunk = text.size() + 1;
    for (std::size_t at = 0; at < text.size(); at += chunk)
        take(reader.feed(std::string_view(text).substr(at, chunk)));
    take(reader.finish());
    read.broken = reader.brokenLines();
    read.broken_count = reader.brokenLineCount();
    read.lines = reader.linesSeen();
    return read;
}

Read table(const std::string& text, OutputContext context = {}, std::size_t chunk = 0) {
    return readAll<NcclTestsTableReader>(text, std::move(context), chunk);
}
Read jsonFile(const std::string& text, OutputContext context = {}, std::size_t chunk = 0) {
    return readAll<NcclTestsJsonReader>(text, std::move(context), chunk);
}

nlohmann::json headerJson(const Read& read) {
    REQUIRE(read.headers().size() == 1);
    return nlohmann::json::parse(read.headers().front().json);
}

bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

// A v2.19.6 table of one row, the row given (util.cu's column header, one rank).
std::string tableWithRow(const std::string& row) {
    return "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
           "validation: 1 graph: 0 unalign: 0\n"
           "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   "
           "algbw   busbw  #wrong \n" +
           row + "\n";
}

} // namespace

TEST_CASE("nccl-tests names become scalebench's: the collective from the program, float32 for float",
          "[core][nccl-tests]") {
    CHECK(ncclTestsCollective("all_reduce_perf") == "allreduce");
    CHECK(ncclTestsCollective("all_gather_perf") == "allgather");
    CHECK(ncclTestsCollective("reduce_scatter_perf") == "reducescatter");
    CHECK(ncclTestsCollective("broadcast_perf") == "broadcast");
    CHECK(ncclTestsCollective("reduce_perf") == "reduce");
    CHECK(ncclTestsCollective("alltoall_perf") == "alltoall");
    CHECK(ncclTestsCollective("sendrecv_perf") == "sendrecv");
    CHECK(ncclTestsCollective("/opt/nccl-tests/build/all_reduce_perf_mpi") == "allreduce");
    CHECK(ncclTestsDtype("float") == "float32");
    CHECK(ncclTestsDtype("half") == "float16");
    CHECK(ncclTestsDtype("bfloat16") == "bfloat16");
    CHECK(ncclTestsDtype("double") == "float64");
    CHECK(ncclTestsDtype("int8") == "int8");
    CHECK(ncclVersionName(22703) == "2.27.3");
    CHECK(ncclVersionName(2804) == "2.8.4");
}

TEST_CASE("a current table (util.cu) gives a header, then an out-of-place and an in-place record per row",
          "[core][nccl-tests]") {
    // all_reduce_perf 2.20.0 on two hosts; the output names its program and lists its ranks, which win over
    // what the launcher says.
    const Read read = table(fixture("all_reduce_v2.20.0_two_hosts.txt"), {4, "some_wrapper"});
    REQUIRE(read.records.size() == 1 + 4 * 2);
    const nlohmann::json h = headerJson(read);
    CHECK(std::holds_alternative<HeaderRecord>(read.records.front()));
    CHECK(h["workload"] == "nccl-tests");
    CHECK(h["tool"] == "nccl-tests");
    CHECK(h["program"] == "all_reduce_perf");
    CHECK(h["tool_version"] == "2.20.0");
    CHECK(h["tool_commit"] == "b4d5bee");
    CHECK(h["nccl_version"] == "2.31.2");
    CHECK(h["ranks"] == 2);
    CHECK(read.headers().front().ranks == 2);
    CHECK(h["hosts"][1] == nlohmann::json{{"rank", 1},
                                          {"group", 0},
                                          {"pid", 1669515},
                                          {"host", "spark-dbf4"},
                                          {"device", 0},
                                          {"bus_id", "000f:01:00"},
                                          {"gpu", "NVIDIA GB10"}});
    CHECK(h["hyperparameters"] == nlohmann::json{{"warmup_iterations", 10},
                                                 {"repetitions", 100},
                                                 {"aggregated_iterations", 1},
                                                 {"min_bytes", 8192},
                                                 {"max_bytes", 8589934592},
                                                 {"step_factor", 2},
                                                 {"validation", 1},
                                                 {"cuda_graph", 0},
                                                 {"threads_per_process", 1},
                                                 {"gpus_per_thread", 1}});

    const std::vector<CollectiveRecord> c = read.collectives();
    // "        8192          2048     float     sum      -1    35.15    0.23    0.23       0    30.33    0.27
    // ..."
    CollectiveRecord first;
    first.collective = "allreduce";
    first.dtype = "float32";
    first.backend = "nccl";
    first.op = "sum";
    first.in_place = false;
    first.elements = 2048;
    first.bytes = 8192;
    first.ranks = 2;
    first.repetitions = 100;
    first.time_s = 35.15 * 1e-6; // microseconds as printed, in seconds
    first.algbw_gbps = 0.23;
    first.busbw_gbps = 0.23;
    first.correct = true;
    first.tool = "nccl-tests";
    first.checked = true;
    CHECK(c[0] == first);
    CHECK(c[1].in_place);
    CHECK(c[1].time_s == Approx(30.33e-6));
    CHECK(c[1].algbw_gbps == 0.27);
    CHECK(c[7].bytes == 65536);
    CHECK(c[7].busbw_gbps == 1.01);

    // The run was cut inside its fifth row: read when the output ended, and broken.
    REQUIRE(read.broken_count == 1);
    CHECK(read.broken[0].line_number == read.lines);
    CHECK(read.broken[0].text == "      131072");
    CHECK(read.broken[0].reason ==
          "a row of 1 fields where the table has 13 (cut short, or mixed with other output?)");
}

TEST_CASE("a row is read once its line is complete: the unfinished last line waits for the output to end",
          "[core][nccl-tests]") {
    NcclTestsTableReader reader({2, "all_reduce_perf"});
    std::string text = fixture("all_reduce_v2.20.0_two_hosts.txt");
    const std::size_t last_row = text.rfind("       65536");
    CHECK(reader.feed(text.substr(0, last_row)).size() == 1 + 3 * 2);
    CHECK(reader.feed(text.substr(last_row)).size() == 2);
    CHECK(reader.brokenLineCount() == 0);
    CHECK(reader.finish().empty());
    CHECK(reader.brokenLineCount() == 1);
}

TEST_CASE("a v2.13 table (common.cu) reads the same way, and N/A says that half was not checked",
          "[core][nccl-tests]") {
    // alltoall_perf on one GPU; its table names no program: the launcher's is taken.
    const Read read = table(fixture("alltoall_v2.13_one_gpu.txt"), {1, "alltoall_perf"});
    REQUIRE(read.records.size() == 1 + 2 + 1);
    CHECK(read.broken_count == 0);
    const nlohmann::json h = headerJson(read);
    CHECK(h["program"] == "alltoall_perf");
    CHECK(h["collective"] == "alltoall");
    CHECK(!h.contains("tool_version"));
    CHECK(h["hosts"][0]["host"] == "GENOA-01");
    CHECK(h["hosts"][0]["bus_id"] == "0x01");
    CHECK(h["hosts"][0]["gpu"] == "NVIDIA GeForce RTX 5090");
    CHECK(h["hyperparameters"]["step_bytes"] == 1048576);
    CHECK(!h["hyperparameters"].contains("step_factor"));

    const std::vector<CollectiveRecord> c = read.collectives();
    // "    33554432       8388608     float    none      -1    19.56  1715.44    0.00      0     0.78
    // 43046.10 ..."
    CHECK(c[0].collective == "alltoall");
    CHECK(c[0].op == "sum"); // as the engine's records of collectives without a reduction read
    CHECK(c[0].elements == 8388608);
    CHECK(c[0].algbw_gbps == 1715.44);
    CHECK(c[0].repetitions == 20);
    CHECK(c[0].checked);
    CHECK(c[0].correct);
    CHECK(c[1].in_place);
    CHECK(c[1].algbw_gbps == 43046.10);
    CHECK_FALSE(c[1].checked);
    CHECK_FALSE(c[1].correct);

    // "# Out of bounds values : 0 OK" and "# Avg bus bandwidth    : 0" close the run.
    REQUIRE(read.summaries().size() == 1);
    CHECK(std::holds_alternative<SummaryRecord>(read.records.back()));
    const nlohmann::json s = nlohmann::json::parse(read.summaries()[0].json);
    CHECK(s["steps"] == 0);
    CHECK(s["avg_busbw_gbps"] == 0);
    CHECK(s["out_of_bounds"] == 0);
}

TEST_CASE("wrong elements make a record incorrect, and lines between rows that are not rows are skipped",
          "[core][nccl-tests]") {
    const Read read = table(fixture("all_reduce_v2.13_wrong.txt"), {16, "all_reduce_perf"});
    CHECK(read.broken_count == 0); // "..." is no row
    const std::vector<CollectiveRecord> c = read.collectives();
    REQUIRE(c.size() == 6);
    CHECK(c[0].ranks == 16);      // no Rank lines: the launcher's ranks
    CHECK(c[0].repetitions == 0); // nor iterations
    CHECK(c[3].correct);
    // "      524288        131072     float     sum      -1    663.1    0.79    0.79  237858    569.4 ..."
    CHECK(c[4].bytes == 524288);
    CHECK(c[4].checked);
    CHECK_FALSE(c[4].correct);
    CHECK_FALSE(c[5].correct);
}

TEST_CASE("-c 0 -I 1 -S 1: the per-iteration columns and the timestamp are skipped, every record unchecked",
          "[core][nccl-tests]") {
    const Read read = table(fixture("reduce_scatter_v2.19.6_per_iteration.txt"));
    CHECK(read.broken_count == 0);
    const nlohmann::json h = headerJson(read);
    CHECK(h["ranks"] == 2); // one process, two GPUs
    CHECK(h["hyperparameters"]["validation"] == 0);
    const std::vector<CollectiveRecord> c = read.collectives();
    REQUIRE(c.size() == 8);
    // "        1024           128     float     sum      -1    10.42    0.10    0.05    N/A    10.01 ..."
    CHECK(c[6].collective == "reducescatter");
    CHECK(c[6].bytes == 1024);
    CHECK(c[6].elements == 256); // the whole buffer: nccl-tests' count (128) is one rank's block
    CHECK(c[6].time_s == Approx(10.42e-6));
    CHECK(c[6].algbw_gbps == 0.10);
    CHECK(c[6].busbw_gbps == 0.05);
    CHECK(c[7].time_s == Approx(10.21e-6));
    for (const CollectiveRecord& r : c) {
        CHECK_FALSE(r.checked);
        CHECK_FALSE(r.correct);
    }
    REQUIRE(read.summaries().size() == 1);
    CHECK(nlohmann::json::parse(read.summaries()[0].json)["avg_busbw_gbps"] == 0.02375);
}

TEST_CASE("before v2.13 the error column is the largest deviation, correct within nccl-tests' tolerance",
          "[core][nccl-tests]") {
    // 1e-06 on 128 GPUs in float: within 1e-5 x (128 - 1), as nccl-tests judged it then.
    const Read many = table(fixture("all_reduce_error_column.txt"), {128, "all_reduce_perf"});
    CHECK(many.broken_count == 0);
    REQUIRE(many.collectives().size() == 12);
    for (const CollectiveRecord& r : many.collectives()) {
        CHECK(r.checked);
        CHECK(r.correct);
    }
    CHECK(many.collectives()[11].time_s == Approx(117.4e-6));
    // The same deviation with one rank, which should have none.
    const Read one = table(fixture("all_reduce_error_column.txt"), {1, "all_reduce_perf"});
    CHECK_FALSE(one.collectives()[0].correct);
}

TEST_CASE("interleaved output of processes: every whole row is read, a row cut by another line is broken",
          "[core][nccl-tests]") {
    // Two processes of an nccl-tests built without MPI, each running its own test: their rows interleave.
    const Read two = table(fixture("all_reduce_two_processes.txt"), {2, "all_reduce_perf"});
    CHECK(two.broken_count == 0);
    REQUIRE(two.collectives().size() == 20);
    CHECK(two.collectives()[12].bytes == 8); // the second process's first row
    CHECK(two.collectives()[12].time_s == Approx(46.80e-6));

    // NCCL's INFO line, from another process, in the middle of a row (nccl-tests prints a row in three
    // parts).
    const std::string text = tableWithRow(
        "           8             2     float     sum      -1node2:4711:4790 [1] NCCL INFO Channel "
        "00/0 : 1[1] -> 0[0] via P2P/IPC\n"
        "    42.56    0.00    0.00      0    41.85    0.00    0.00      0\n"
        "          16             4     float     sum      -1    42.37    0.00    0.00      0    "
        "41.90    0.00    0.00      0");
    const Read cut = table(text, {2, "all_reduce_perf"});
    REQUIRE(cut.collectives().size() == 2);
    CHECK(cut.collectives()[0].bytes == 16);
    REQUIRE(cut.broken_count == 2);
    CHECK(cut.broken[0].reason ==
          "a row of 16 fields where the table has 13 (cut short, or mixed with other output?)");
    CHECK(cut.broken[1].reason ==
          "a row of 8 fields where the table has 13 (cut short, or mixed with other output?)");
    CHECK(cut.broken[1].line_number == 4);
}

TEST_CASE("NCCL's own lines and a launcher's are skipped, not broken", "[core][nccl-tests]") {
    const Read read =
        table(tableWithRow("node1:4711:4711 [0] NCCL INFO NCCL version 2.27.3+cuda12.9\n"
                           "10-0-0-1:4711:4790 [0] NCCL INFO Channel 00/02 : 0 1\n"
                           "Warning: Permanently added 'node2' (ED25519) to the list of known hosts.\n"
                           "1 more process has sent help message help-mpi-btl-base.txt / btl:no-nics\n"
                           "\n"
                           "# error: \n"
                           "           8             2     float     sum      -1    42.56    0.00    "
                           "0.00      0    41.85    0.00    0.00      0"));
    CHECK(read.broken_count == 0);
    CHECK(read.collectives().size() == 2);
}

TEST_CASE("Open MPI's --tag-output prefix is read through", "[core][nccl-tests]") {
    const Read read = table(fixture("all_reduce_tagged_output.txt"), {16, "all_reduce_perf"});
    CHECK(read.broken_count == 0);
    REQUIRE(read.collectives().size() == 6);
    CHECK(read.collectives()[5].time_s == Approx(13.34e-6));
}

TEST_CASE("CRLF line ends read the same as LF", "[core][nccl-tests]") {
    for (const char* name : {"all_reduce_v2.20.0_two_hosts.txt", "alltoall_v2.13_one_gpu.txt",
                             "reduce_scatter_v2.19.6_per_iteration.txt"}) {
        const std::string text = fixture(name);
        const Read lf = table(text);
        const Read crlf = table(replaced(text, "\n", "\r\n"));
        CHECK(crlf.records == lf.records);
        CHECK(sameBroken(crlf.broken, lf.broken));
    }
}

TEST_CASE("chunks give what the whole output at once gives", "[core][nccl-tests]") {
    for (const char* name :
         {"all_reduce_v2.20.0_two_hosts.txt", "alltoall_v2.13_one_gpu.txt", "all_reduce_v2.13_wrong.txt",
          "all_reduce_two_processes.txt", "all_reduce_error_column.txt", "all_reduce_tagged_output.txt",
          "all_reduce_v2.19.6_two_ranks.txt", "reduce_scatter_v2.19.6_per_iteration.txt"}) {
        const std::string text = fixture(name);
        const Read whole = table(text, {4, "all_reduce_perf"});
        CHECK(!whole.collectives().empty());
        for (std::size_t chunk : {1, 3, 17, 4096}) {
            const Read chunked = table(text, {4, "all_reduce_perf"}, chunk);
            CHECK(chunked.records == whole.records);
            CHECK(sameBroken(chunked.broken, whole.broken));
            CHECK(chunked.lines == whole.lines);
        }
    }
    const std::string json = fixture("all_reduce_v2.19.6_two_ranks.json");
    const Read whole = jsonFile(json);
    for (std::size_t chunk : {1, 3, 17, 4096})
        CHECK(jsonFile(json, {}, chunk).records == whole.records);
}

TEST_CASE("numbers out of their range make the row broken, naming the column", "[core][nccl-tests]") {
    const auto reasonFor = [](const std::string& row) {
        const Read read = table(tableWithRow(row));
        CHECK(read.records.empty());
        REQUIRE(read.broken_count == 1);
        return read.broken[0].reason;
    };
    CHECK(reasonFor("99999999999999999999  2  float  sum  -1  42.56  0.00  0.00  0  41.85  0.00  0.00  0") ==
          "size '99999999999999999999' is not a whole number in range");
    CHECK(reasonFor("1e308  2  float  sum  -1  42.56  0.00  0.00  0  41.85  0.00  0.00  0") ==
          "size '1e308' is not a whole number in range");
    CHECK(reasonFor("8  2  float  sum  -1  42.56  0.00  0.00  1e308  41.85  0.00  0.00  0") ==
          "#wrong 1e+308 of the out-of-place result is out of range");
    CHECK(reasonFor("8  2  float  sum  -1  1e999  0.00  0.00  0  41.85  0.00  0.00  0") ==
          "time '1e999' of the out-of-place result is not a number");
    CHECK(reasonFor("8  2  float  sum  -1  42.56  0.00  0.00  0  41.85  inf  0.00  0") ==
          "algbw inf of the in-place result is out of range");
    CHECK(reasonFor("8  -2  float  sum  -1  42.56  0.00  0.00  0  41.85  0.00  0.00  0") ==
          "size 8 or count -2 is negative");
    CHECK(reasonFor("8  2  7  sum  -1  42.56  0.00  0.00  0  41.85  0.00  0.00  0") ==
          "type '7' is not a type");
}

TEST_CASE("hypercube_perf's empty redop still reads as a row", "[core][nccl-tests]") {
    // "%6s" of "" leaves the redop column blank: the row has one field fewer.
    const Read read =
        table(tableWithRow("        1024           128     float              -1    21.30    0.05    "
                           "0.04      0    20.88    0.05    0.04      0"),
              {2, "hypercube_perf"});
    CHECK(read.broken_count == 0);
    REQUIRE(read.collectives().size() == 2);
    CHECK(read.collectives()[0].collective == "hypercube");
}

TEST_CASE("each run of an output that holds several gets its own header and summary", "[core][nccl-tests]") {
    const Read read =
        table(fixture("all_reduce_v2.19.6_two_ranks.txt") + fixture("alltoall_v2.13_one_gpu.txt"),
              {2, "all_reduce_perf"});
    REQUIRE(read.headers().size() == 2);
    CHECK(read.summaries().size() == 2);
    CHECK(read.headers()[1].ranks == 1);
    CHECK(read.collectives().back().ranks == 1);
    CHECK(read.collectives().front().collective == "allreduce");
}

TEST_CASE("header and summary records read back through the metric stream parser as the same records",
          "[core][nccl-tests]") {
    for (const Read& read : {table(fixture("all_reduce_v2.19.6_two_ranks.txt")),
                             jsonFile(fixture("all_reduce_v2.19.6_two_ranks.json"))}) {
        REQUIRE(read.headers().size() == 1);
        REQUIRE(read.summaries().size() == 1);
        MetricStreamParser parser;
        const std::vector<MetricRecord> back =
            parser.feed(read.headers()[0].json + "\n" + read.summaries()[0].json + "\n");
        REQUIRE(back.size() == 2);
        CHECK(back[0] == MetricRecord(read.headers()[0]));
        CHECK(back[1] == MetricRecord(read.summaries()[0]));
    }
}

TEST_CASE("a run's JSON file gives the records its table gives", "[core][nccl-tests]") {
    const Read text = table(fixture("all_reduce_v2.19.6_two_ranks.txt"));
    const Read json = jsonFile(fixture("all_reduce_v2.19.6_two_ranks.json"));
    CHECK(json.broken_count == 0);
    CHECK(text.broken_count == 0);
    REQUIRE(json.collectives().size() == 10);
    CHECK(json.collectives() == text.collectives());
    CHECK_FALSE(json.collectives()[6].correct); // 3 wrong elements out of place at 8 MiB
    CHECK(json.collectives()[7].correct);
    CHECK(json.summaries() == text.summaries());
    CHECK(std::holds_alternative<HeaderRecord>(json.records.front()));
    CHECK(std::holds_alternative<SummaryRecord>(json.records.back()));

    const nlohmann::json h = headerJson(json);
    CHECK(h["program"] == "all_reduce_perf"); // from args[0]
    CHECK(h["ranks"] == 2);                   // threads x GPUs x processes (one device listed per process)
    CHECK(h["nccl_version"] == "2.27.3");
    CHECK(h["json_format_version"] == 3);
    CHECK(h["hosts"][1]["bus_id"] == "0000:2a:00");
    CHECK(h["hyperparameters"] == headerJson(text)["hyperparameters"]);
}

TEST_CASE("a growing JSON file gives each result as soon as its object closes", "[core][nccl-tests]") {
    const std::string json = fixture("all_reduce_v2.19.6_two_ranks.json");
    REQUIRE(json.find('\n') == std::string::npos); // util.cu writes no newline
    // Half of the file ends inside the third result.
    const std::size_t half = json.find("{\"size\":4194304") + 40;
    NcclTestsJsonReader reader({2, "all_reduce_perf"});
    const std::vector<MetricRecord> first = reader.feed(json.substr(0, half));
    REQUIRE(first.size() == 1 + 2 * 2);
    CHECK(std::get<CollectiveRecord>(first[4]).bytes == 2097152);
    const std::vector<MetricRecord> rest = reader.feed(json.substr(half));
    REQUIRE(rest.size() == 3 * 2 + 1);
    CHECK(std::get<CollectiveRecord>(rest[0]).bytes == 4194304);
    CHECK(reader.finish().empty());
    CHECK(reader.brokenLineCount() == 0);
}

TEST_CASE("a JSON file the run left unfinished gives every complete result, and the rest is one broken entry",
          "[core][nccl-tests]") {
    const std::string json = fixture("all_reduce_v2.19.6_two_ranks.json");
    const std::string killed = json.substr(0, json.find("{\"size\":8388608") + 100);
    const Read read = jsonFile(killed, {2, "all_reduce_perf"});
    CHECK(read.collectives().size() == 3 * 2);
    CHECK(read.summaries().empty());
    REQUIRE(read.broken_count == 1);
    CHECK(read.broken[0].line_number == 1);
    CHECK_THAT(read.broken[0].text, Catch::StartsWith("{\"size\":8388608"));
    CHECK(read.broken[0].reason ==
          "the JSON ends inside a result after 3 complete results: the run ended before "
          "nccl-tests closed its document");

    // Killed between results: the results array is left open.
    const Read between = jsonFile(json.substr(0, json.find(",{\"size\":8388608")));
    CHECK(between.collectives().size() == 3 * 2);
    REQUIRE(between.broken_count == 1);
    CHECK_THAT(between.broken[0].reason, Catch::StartsWith("the JSON ends inside 'results' after 3"));
}

TEST_CASE("a JSON result that cannot be read is broken, the others kept, and text around the document too",
          "[core][nccl-tests]") {
    std::string json = fixture("all_reduce_v2.19.6_two_ranks.json");
    // util.cu writes a NaN double as the string "nan".
    const std::size_t time = json.find("\"time\":", json.find("{\"size\":2097152"));
    json.replace(time, std::string("\"time\":25.190000").size(), "\"time\":\"nan\"");
    const Read read = jsonFile("mpirun: proxy started\n" + json);
    CHECK(read.collectives().size() == 4 * 2);
    REQUIRE(read.broken_count == 2);
    CHECK(read.broken[0].reason == "text outside the JSON document (is this nccl-tests' -J output?)");
    CHECK(read.broken[0].text == "mpirun: proxy started\n");
    CHECK(read.broken[1].reason == "the out-of-place result's 'time' is \"nan\", not a number");
    CHECK(read.broken[1].line_number == 2);
}

TEST_CASE("a JSON result without its out-of-place half gives the in-place record alone",
          "[core][nccl-tests]") {
    // util.cu's writeBenchMarkLineNullBody: "out_of_place":null.
    const Read read = jsonFile(R"({"version":3,"results":[{"size":8,"count":2,"type":"half","redop":"max",)"
                               R"("root":"    -1","out_of_place":null,"in_place":{"time":9.500000,"alg_bw":)"
                               R"(0.000000,"bus_bw":0.000000,"nwrong":null},"actual_iterations":20,)"
                               R"("experiment_name":""}]})",
                               {8, "all_reduce_perf"});
    REQUIRE(read.collectives().size() == 1);
    const CollectiveRecord& r = read.collectives()[0];
    CHECK(r.in_place);
    CHECK(r.dtype == "float16");
    CHECK(r.op == "max");
    CHECK(r.ranks == 8);
    CHECK(r.repetitions == 20);
    CHECK_FALSE(r.checked);
    CHECK(read.broken_count == 0);
}

// Found by fuzz_nccl_tests_table (fuzz/regressions/nccl_tests_table/bus-id-not-utf8): a bus id with bytes
// that are not UTF-8 made the header's JSON throw ("invalid UTF-8 byte") out of feed.
TEST_CASE("words of the output that are not UTF-8 reach the header as U+FFFD, never an exception",
          "[core][nccl-tests]") {
    const Read read =
        table("#  Rank  0 Group  0 Pid 1669515 on spark-\xff device  0 [000f:\xff\xff] NVIDIA GB10\n" +
              tableWithRow("           8             2     float     sum      -1    42.56    0.00    "
                           "0.00      0    41.85    0.00    0.00      0"));
    CHECK(read.collectives().size() == 2);
    const nlohmann::json h = headerJson(read);
    CHECK(h["hosts"][0]["host"] == "spark-\xef\xbf\xbd");
    CHECK(h["hosts"][0]["bus_id"] == "000f:\xef\xbf\xbd\xef\xbf\xbd");
}
