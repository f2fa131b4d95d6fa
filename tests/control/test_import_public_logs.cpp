// Public nccl-tests logs (tests/data/nccl-tests/public) and OSU outputs (tests/data/osu/public) imported as a
// user imports them: each collective of a log its own run, and every figure the same as the log itself
// printed, whatever launcher wrapped its lines.
#include "console_run.h"
#include "file_text.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

using namespace scalebench;

namespace {

const std::string kPublic = SCALEBENCH_SOURCE_DIR "/tests/data/nccl-tests/public/";

// What a log printed, read by the test on its own: each "# Avg bus bandwidth : X", in order.
std::vector<double> printedAverages(const std::string& log) {
    std::vector<double> averages;
    const std::regex average(R"(# Avg bus bandwidth\s*:\s*([0-9.]+))");
    for (auto it = std::sregex_iterator(log.begin(), log.end(), average); it != std::sregex_iterator(); ++it)
        averages.push_back(std::stod((*it)[1]));
    return averages;
}

struct ImportedRun {
    std::string name;
    int ranks = 0;
    double average = -1; // the run's summary's avg_busbw_gbps
    std::vector<CollectiveRecord> sizes;
};

// The runs one file gave when imported with `extra` options.
std::vector<ImportedRun> importOne(const std::string& file, std::vector<std::string> extra = {}) {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    std::vector<std::string> args = {"import", kPublic + file, "--format", "nccl-tests", "--db", db};
    args.insert(args.end(), extra.begin(), extra.end());
    const ConsoleRun run = runConsole(folder, args);
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    CHECK_THAT(run.out, Catch::Contains("0 broken line(s)"));
    SessionStore store(db);
    std::vector<ImportedRun> runs;
    for (const RunRow& row : store.runs(1)) {
        ImportedRun r{row.name, row.ranks, -1, store.collectives(row.id)};
        const auto summary = nlohmann::json::parse(row.summary_json, nullptr, false);
        if (summary.is_object()) r.average = summary.value("avg_busbw_gbps", -1.0);
        runs.push_back(std::move(r));
    }
    return runs;
}

} // namespace

TEST_CASE("a log of five collectives run one after another is five runs, each with its own average",
          "[cli][import][public]") {
    const std::string file = "multi_v2.17.8_1node_8xH100_xxrjun.log";
    const auto runs = importOne(file);
    REQUIRE(runs.size() == 5);
    const std::vector<std::string> collectives = {"allreduce", "allgather", "reducescatter", "alltoall",
                                                  "sendrecv"};
    const std::vector<double> averages = printedAverages(fileText(kPublic + file));
    REQUIRE(averages.size() == 5);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(runs[i].name);
        CHECK(runs[i].name == "multi_v2.17.8_1node_8xH100_xxrjun-" + collectives[i]);
        CHECK(runs[i].ranks == 8);
        CHECK(runs[i].average == averages[i]);
        REQUIRE(runs[i].sizes.size() == 20); // ten sizes, out of place and in place
        for (const CollectiveRecord& c : runs[i].sizes)
            CHECK(c.collective == collectives[i]);
    }
    // Every size's bus bandwidth as printed: the section's rows, out of place then in place.
    const std::string log = fileText(kPublic + file);
    const std::regex row(R"(\n\s+(\d+)\s+\d+\s+double\s+\w+\s+-?\d+\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s+\S+)"
                         R"(\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+))");
    std::vector<std::pair<double, double>> printed; // (out-of-place, in-place) busbw, in the log's order
    for (auto it = std::sregex_iterator(log.begin(), log.end(), row); it != std::sregex_iterator(); ++it)
        printed.emplace_back(std::stod((*it)[2]), std::stod((*it)[3]));
    REQUIRE(printed.size() == 50);
    for (std::size_t i = 0; i < runs.size(); ++i)
        for (std::size_t k = 0; k < 10; ++k) {
            CHECK(runs[i].sizes[k].busbw_gbps == printed[i * 10 + k].first);
            CHECK_FALSE(runs[i].sizes[k].in_place);
            CHECK(runs[i].sizes[10 + k].busbw_gbps == printed[i * 10 + k].second);
        }
}

TEST_CASE("three cases of all-reduce then all-to-all in one log are six runs told apart by their names",
          "[cli][import][public]") {
    const std::string file = "multi_v2.18.3_allreduce_alltoall_3cases_jianxiongzhang.txt";
    const auto runs = importOne(file);
    REQUIRE(runs.size() == 6);
    const std::string stem = "multi_v2.18.3_allreduce_alltoall_3cases_jianxiongzhang-";
    CHECK(runs[0].name == stem + "allreduce");
    CHECK(runs[1].name == stem + "alltoall");
    CHECK(runs[4].name == stem + "allreduce-3");
    CHECK(runs[5].name == stem + "alltoall-3");
    const std::vector<double> averages = printedAverages(fileText(kPublic + file));
    REQUIRE(averages.size() == 6);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        CHECK(runs[i].ranks == 16);
        CHECK(runs[i].average == averages[i]);
    }
}

TEST_CASE("launchers' wrapping is read through: tags inside rows, srun's labels, an old blank redop",
          "[cli][import][public]") {
    // mpirun --tag-output tags each piece a process wrote, also inside a row: "-1[1,0]<stdout>:    85.70".
    // srun --label puts "0: " before every line. Old all-to-all prints no redop at all (and its five 0-byte
    // rows of each placement are one size: 68 rows, 60 sizes).
    for (const auto& [file, ranks, sizes] :
         {std::tuple{"tagged_output_all_reduce_2node_h100_keitaw.log", 16, 64},
          std::tuple{"srun_prefixed_all_reduce_alps_gh200_8rank.out", 8, 60},
          std::tuple{"old_v2_alltoall_superbench_a100_8gpu.log", 8, 60},
          std::tuple{"old_v2_all_reduce_abci_a100_32rank_error_col.txt", 32, 48}}) {
        INFO(file);
        const auto runs = importOne(file);
        REQUIRE(runs.size() == 1);
        CHECK(runs[0].ranks == ranks);
        CHECK(runs[0].sizes.size() == static_cast<std::size_t>(sizes));
        const std::vector<double> averages = printedAverages(fileText(kPublic + file));
        REQUIRE(averages.size() == 1);
        CHECK(runs[0].average == averages[0]);
    }
}

TEST_CASE("public OSU collective outputs read row by row as printed, host and device buffers",
          "[cli][import][public]") {
    const std::string osu = SCALEBENCH_SOURCE_DIR "/tests/data/osu/public/";
    // ABCI's 32-rank osu_allreduce with -d cuda (its first line empty) and on host buffers, its 8-rank
    // osu_bcast -d cuda (OMB 5.7), and a 192-rank osu_reduce -d cuda of OMB 7.3 (datatype line first).
    for (const auto& [file, ranks] : {std::pair{"osu_5.7_allreduce_cuda_abci_32rank.txt", "32"},
                                      std::pair{"osu_5.7_allreduce_host_abci_32rank.txt", "32"},
                                      std::pair{"osu_5.7_bcast_cuda_abci_8rank.txt", "8"},
                                      std::pair{"osu_7.3_reduce_cuda_192rank_ompi12318.txt", "192"}}) {
        INFO(file);
        TemporaryFolder folder;
        const std::string db = (folder.path / "s.db").string();
        const ConsoleRun run =
            runConsole(folder, {"import", osu + file, "--format", "osu", "--ranks", ranks, "--db", db});
        INFO(run.printed());
        REQUIRE(run.exit_status == 0);
        CHECK_THAT(run.out, Catch::Contains("0 broken line(s)"));
        // The printed rows, read by the test: size and average latency.
        const std::string text = fileText(osu + file);
        const std::regex row(R"((?:^|\n)(\d+)\s+([0-9.]+)\s+[0-9.]+\s+[0-9.]+\s+\d+)");
        std::vector<double> printed;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
             ++it)
            printed.push_back(std::stod((*it)[2]));
        SessionStore store(db);
        const auto sizes = store.collectives(store.runs(1).at(0).id);
        REQUIRE(sizes.size() == printed.size());
        for (std::size_t i = 0; i < sizes.size(); ++i)
            CHECK(sizes[i].time_s * 1e6 == Approx(printed[i]).epsilon(1e-12));
    }
}

TEST_CASE("public OSU point-to-point outputs are refused naming the benchmark, not read as something else",
          "[cli][import][public]") {
    const std::string osu = SCALEBENCH_SOURCE_DIR "/tests/data/osu/public/";
    for (const auto& [file, benchmark] :
         {std::pair{"osu_5.7.1_latency_host_aws_p5_openmpi.txt", "'OSU MPI Latency Test'"},
          std::pair{"osu_7.2_bw_cuda_DD_eessi_a100_nvlink.txt", "'OSU MPI-CUDA Bandwidth Test'"},
          std::pair{"osu_5.3.2_bibw_host_cofc.txt", "'OSU MPI Bi-Directional Bandwidth Test'"}}) {
        INFO(file);
        TemporaryFolder folder;
        const ConsoleRun run = runConsole(folder, {"import", osu + file, "--format", "osu", "--ranks", "2",
                                                   "--db", (folder.path / "s.db").string()});
        INFO(run.printed());
        CHECK(run.exit_status == 1);
        CHECK_THAT(run.err, Catch::Contains(std::string(benchmark) + " is not an OSU collective benchmark"));
    }
}
