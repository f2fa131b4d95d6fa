// Public MLPerf result trees (tests/data/mlperf/public) scored twice: by MLPerf's own result summarizer
// (mlperf-logging 4.1.68, the set-up installs it for make test) and by `scalebench import` of the same tree.
// Every score and GPU count must be the summarizer's.
#include "child_process.h"
#include "console_run.h"
#include "file_text.h"
#include "results_table.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace scalebench;

namespace {

const std::filesystem::path kTrees = SCALEBENCH_SOURCE_DIR "/tests/data/mlperf/public";

struct Score {
    std::string submitter;
    std::string benchmark;
    int accelerators = 0;
    double minutes = 0;
    bool operator<(const Score& o) const {
        return std::tie(submitter, benchmark, accelerators) <
               std::tie(o.submitter, o.benchmark, o.accelerators);
    }
};

// The summarizer run as its README says, on a copy of the tree (it rewrites scaling.json files): its strong
// scaling table's scores, one per submitter, system and benchmark.
std::vector<Score> summarizerScores(const TemporaryFolder& folder, const std::string& tree,
                                    const std::string& usage, const std::string& ruleset) {
    const std::filesystem::path copy = folder.path / ("summarized-" + tree);
    std::filesystem::copy(kTrees / tree, copy, std::filesystem::copy_options::recursive);
    // The CSV's first table (HPC appends its weak-scaling table below it with a header of its own).
    const std::string to_lines =
        "import csv\n"
        "rows = list(csv.reader(open('out.csv')))\n"
        "head = rows[0]\n"
        "for row in rows[1:]:\n"
        "    if row and row[0] == 'division': break\n"
        "    d = dict(zip(head, row))\n"
        "    for b in head[head.index('private_id') + 1:head.index('details_url')]:\n"
        "        if d.get(b): print(d['submitter'], b, d['accelerators_count'], d[b], sep='|')\n";
    const std::string printed = (folder.path / (tree + ".txt")).string();
    const std::string python = SCALEBENCH_TEST_PYTHON;
    ChildProcess summarizer({"/bin/sh", "-c",
                             "cd '" + copy.string() + "' && '" + python +
                                 "' -m mlperf_logging.result_summarizer './{*}' " + usage + " " + ruleset +
                                 " --csv out.csv > summarizer.log 2>&1 && '" + python + "' -c \"" + to_lines +
                                 "\""},
                            printed, printed);
    const int status = summarizer.wait().status;
    INFO(fileText(printed));
    INFO(fileText((copy / "summarizer.log").string()));
    REQUIRE(status == 0);
    std::vector<Score> scores;
    std::istringstream lines(fileText(printed));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, '|');)
            cells.push_back(cell);
        REQUIRE(cells.size() == 4);
        scores.push_back({cells[0], cells[1], std::stoi(cells[2]), std::stod(cells[3])});
    }
    std::sort(scores.begin(), scores.end());
    return scores;
}

// `scalebench import TREE --format mllog` (no --ranks): each series' MLPerf score.
std::vector<Score> importedScores(const TemporaryFolder& folder, const std::string& tree) {
    const std::string db = (folder.path / (tree + ".db")).string();
    const ConsoleRun run =
        runConsole(folder, {"import", (kTrees / tree).string(), "--format", "mllog", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    SessionStore store(db);
    std::vector<Score> scores;
    for (const ScalingPoint& p : sessionScaling(loadSessionResults(store, 1))) {
        if (!p.mlperf || !p.mlperf->score_min) continue;
        scores.push_back(
            {p.series.settings.at("submitter"), p.series.workload, p.ranks, *p.mlperf->score_min});
    }
    std::sort(scores.begin(), scores.end());
    return scores;
}

void requireSame(const std::vector<Score>& summarizer, const std::vector<Score>& scalebench) {
    REQUIRE(summarizer.size() == scalebench.size());
    for (std::size_t i = 0; i < summarizer.size(); ++i) {
        INFO(summarizer[i].submitter << " " << summarizer[i].benchmark);
        CHECK(scalebench[i].submitter == summarizer[i].submitter);
        CHECK(scalebench[i].benchmark == summarizer[i].benchmark);
        CHECK(scalebench[i].accelerators == summarizer[i].accelerators); // systems/<system>.json's count
        CHECK(scalebench[i].minutes == Approx(summarizer[i].minutes).epsilon(1e-12));
    }
}

} // namespace

TEST_CASE("MLPerf Training result trees score as MLPerf's result summarizer scores them",
          "[cli][import][mlperf][public]") {
    // NVIDIA's ResNet (an aborted run below the target, scaling.json 1.0042), and Llama 2 70B LoRA on two
    // systems of two submitters, each with its scaling.json: three series, three scores.
    TemporaryFolder folder;
    const std::vector<Score> summarizer =
        summarizerScores(folder, "training_results_v4.0", "training", "4.0.0");
    REQUIRE(summarizer.size() == 3);
    requireSame(summarizer, importedScores(folder, "training_results_v4.0"));
}

TEST_CASE("an MLPerf HPC tree scores as MLPerf's result summarizer scores it, strong and weak scaling",
          "[cli][import][mlperf][public]") {
    // HPE+LBNL's OpenCatalyst strong scaling on Perlmutter, and NVIDIA's OpenCatalyst weak scaling on Eos: 28
    // models trained at once.
    TemporaryFolder folder;
    const std::vector<Score> summarizer = summarizerScores(folder, "hpc_results_v3.0", "hpc", "3.0.0");
    REQUIRE(summarizer.size() == 1);
    const std::vector<Score> imported = importedScores(folder, "hpc_results_v3.0");
    REQUIRE(imported.size() == 2); // the strong score, and the weak one (below)
    requireSame(summarizer, {imported[0]});

    // The summarizer's weak table, the second in its CSV: models, instance scale, time to train them all.
    const std::string csv = fileText((folder.path / "summarized-hpc_results_v3.0/out.csv").string());
    const std::string weak_table = csv.substr(csv.find("\ndivision,") + 1);
    const auto cells = [](const std::string& line) {
        std::vector<std::string> out;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');)
            out.push_back(cell);
        return out;
    };
    const std::vector<std::string> head = cells(weak_table.substr(0, weak_table.find('\n')));
    const std::string row_text = weak_table.substr(weak_table.find('\n') + 1);
    const std::vector<std::string> row = cells(row_text.substr(0, row_text.find('\n')));
    const auto at = [&](const std::string& column) {
        const auto it = std::find(head.begin(), head.end(), column);
        REQUIRE(it != head.end());
        return row.at(static_cast<std::size_t>(it - head.begin()));
    };
    CHECK(at("submitter") == "NVIDIA");
    CHECK(std::stod(at("oc20:number_of_models")) == 28);
    CHECK(std::stod(at("oc20:instance_scale")) == 64);
    const double time_to_train_all = std::stod(at("oc20:time_to_train_all"));
    CHECK(time_to_train_all == Approx(44.09263333333333).epsilon(1e-12));

    const std::string db = (folder.path / "hpc_results_v3.0.db").string();
    SessionStore store(db);
    const auto points = sessionScaling(loadSessionResults(store, 1));
    const auto weak = std::find_if(points.begin(), points.end(), [](const ScalingPoint& p) {
        return p.mlperf && p.mlperf->weak.has_value();
    });
    REQUIRE(weak != points.end());
    CHECK(weak->mlperf->weak->models == 28);
    CHECK(weak->mlperf->weak->instance_scale == 64);
    CHECK(weak->mlperf->weak->time_to_train_all_min == Approx(time_to_train_all).epsilon(1e-12));
    CHECK(*weak->mlperf->score_min == weak->mlperf->weak->time_to_train_all_min);
    CHECK(weak->ranks == 2048); // the system's accelerators: 28 models of 64 at once
    CHECK_THAT(weak->mlperf->verdict, Catch::Contains("28 models of 64 accelerators each"));
}

TEST_CASE("a run cut before run_stop counts as a failed run of its result", "[cli][import][mlperf]") {
    // The ResNet folder with its last run cut where run_stop would be: MLPerf's compliance check refuses it
    // (exactly one run_stop), and the summarizer counts it failed: 4 of 5 converged, one dropped.
    TemporaryFolder folder;
    const auto tree = folder.path / "NVIDIA";
    std::filesystem::copy(kTrees / "training_results_v4.0/NVIDIA", tree,
                          std::filesystem::copy_options::recursive);
    const auto cut = tree / "results/eos_n8_ngc24.04_mxnet/resnet/result_3.txt";
    std::string log = fileText(cut.string());
    log = log.substr(0, log.find("\"key\": \"run_stop\""));
    log = log.substr(0, log.rfind('\n') + 1);
    std::filesystem::remove_all(tree / "results/eos_n8_ngc24.04_nemo");
    std::ofstream(cut, std::ios::trunc) << log;
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(folder, {"import", tree.string(), "--format", "mllog", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    CHECK_THAT(run.out, Catch::Contains("MLPerf: cut before run_stop, a failed run"));
    SessionStore store(db);
    // Each run's status is its log's: result_3 cut, result_4 aborted, the others ok.
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 5);
    CHECK(runs[3].status == RunStatus::Cut);
    CHECK(runs[4].status == RunStatus::Aborted);
    // MLPerf's compliance check of the quality, kept with each run: result_4's best top-1 stayed below 0.759.
    const auto results = loadSessionResults(store, 1);
    CHECK(results[4].mlperf_target_met == std::optional<bool>(false));
    CHECK(results[0].mlperf_target_met == std::optional<bool>(true));
    CHECK(runs[0].status == RunStatus::Ok);
    const auto points = sessionScaling(loadSessionResults(store, 1));
    REQUIRE(points.size() == 1);
    REQUIRE(points[0].mlperf.has_value());
    CHECK(points[0].mlperf->runs == 5);
    CHECK(points[0].mlperf->converged == 3);              // result_4 aborted, result_3 cut
    CHECK_FALSE(points[0].mlperf->score_min.has_value()); // two failed runs: no valid result
    CHECK_THAT(points[0].mlperf->verdict, Catch::Contains("2 of 5 runs did not converge"));
}

TEST_CASE("imported MLPerf runs keep the times their logs say, and so does their session",
          "[cli][import][mlperf]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    const auto resnet = kTrees / "training_results_v4.0/NVIDIA/results/eos_n8_ngc24.04_mxnet/resnet";
    const ConsoleRun run =
        runConsole(folder, {"import", (resnet / "result_0.txt").string(), (resnet / "result_1.txt").string(),
                            "--format", "mllog", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 2);
    // result_0's run_start and run_stop: time_ms 1714090291947 and 1714090442273 (UTC).
    CHECK(runs[0].started_at == "2024-04-26T00:11:31Z");
    CHECK(runs[0].finished_at == "2024-04-26T00:14:02Z");
    const auto session = store.session(1);
    REQUIRE(session.has_value());
    CHECK(session->started_at == std::min(runs[0].started_at, runs[1].started_at)); // not the import's time
    CHECK(session->finished_at == std::max(runs[0].finished_at, runs[1].finished_at));
}
