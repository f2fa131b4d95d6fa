// scalebench import as a user runs it: logs of runs that already happened, each read by its format's reader
// into one stored session: MLPerf's time to train as its result summarizer computes it, MaxText's figures as
// seed 003 reads them, and a file that cannot be read named without losing the others.
#include "console_run.h"
#include "file_text.h"
#include "results_table.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>

using namespace scalebench;

namespace {
// time_ms of the log's first line with this key, as the file says it.
double timeOf(const std::string& log, const std::string& key) {
    std::smatch m;
    REQUIRE(std::regex_search(log, m, std::regex("\"time_ms\": ([0-9.]+), [^\\n]*\"key\": \"" + key + "\"")));
    return std::stod(m[1]);
}
} // namespace

TEST_CASE("an imported MLLOG gives the time to train of MLPerf's result summarizer", "[cli][import]") {
    TemporaryFolder folder;
    const std::string log = SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert_success.log";
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(
        folder, {"import", log, "--format", "mllog", "--ranks", "8", "--session", "bert", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    // The summarizer's arithmetic (_compute_strong_score_standalone): (run_stop - run_start) ms / 60000.
    const std::string text = fileText(log);
    const double minutes = (timeOf(text, "run_stop") - timeOf(text, "run_start")) / 60000.0;
    CHECK(minutes == Approx(4.806).epsilon(1e-3));
    char expected[64];
    std::snprintf(expected, sizeof expected, "MLPerf time to train %.2f min (success)", minutes);
    CHECK_THAT(run.out, Catch::Contains(expected));
    // The results table shows it as the run's figure (the run has no steps of its own).
    std::snprintf(expected, sizeof expected, "   MLPerf time to train %.2f min (success)\n", minutes);
    CHECK_THAT(run.out,
               Catch::Contains("\nbert_success ") && Catch::Contains(std::string("     ok") + expected));

    SessionStore store(db);
    const auto sessions = store.sessions();
    REQUIRE(sessions.size() == 1);
    CHECK(sessions[0].name == "bert");
    CHECK(storedWord(sessions[0].status) == "ok");
    const auto runs = store.runs(sessions[0].id);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].name == "bert_success");
    CHECK(runs[0].workload == "bert");
    CHECK(runs[0].ranks == 8);
    CHECK(storedWord(runs[0].status) == "ok");
    CHECK(store.evals(runs[0].id).size() == 3);
    CHECK_THAT(runs[0].summary_json, Catch::Contains("\"status\":\"success\""));
}

TEST_CASE("an imported MaxText log gives seed 003's seconds per step, tokens/s, MFU and days to 1T tokens",
          "[cli][import]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run =
        runConsole(folder, {"import", SCALEBENCH_SOURCE_DIR "/tests/data/maxtext/llama2-70b-64gpu.log",
                            "--format", "maxtext", "--ranks", "64", "--peak-tflops", "989", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    // The seed's last step: 7.908 s, 1035.970 tokens/s/device x 64 GPUs, 460.480 TFLOP/s/device; 1e12 tokens
    // at 66302.08 tokens/s take 174.57 days. MFU against the seed's H100 bf16 peak of 989 TFLOP/s: 460.480 /
    // 989 = 46.56% from MaxText's own FLOP count (the seed's 46.54% uses its rounded 1.82E+15 a sample).
    CHECK_THAT(run.out, Catch::Contains("50 step(s)") &&
                            Catch::Contains("last step 7.908 s, 66302.08 tokens/s, 460.480 TFLOP/s/device, "
                                            "MFU 46.56% of 989 TFLOP/s, 174.57 days to 1T tokens"));
    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    const auto steps = store.steps(runs[0].id);
    REQUIRE(steps.size() == 50);
    CHECK(steps.back().step_s == Approx(7.908));
    CHECK(steps.back().tokens_per_s == Approx(1035.970 * 64));
    CHECK(*steps.back().mfu == Approx(460.480 / 989));
}

TEST_CASE("a file with no readable record says which line broke first, and why", "[cli][import]") {
    TemporaryFolder folder;
    const auto log = folder.path / "maxtext.log";
    std::ofstream(log) << "Config param max_target_length: 4096\n"
                          "completed step: 1, seconds: 7.908, TFLOP/s/device: 460.480\n";
    const ConsoleRun run = runConsole(folder, {"import", log.string(), "--format", "maxtext", "--ranks", "8",
                                               "--db", (folder.path / "s.db").string()});
    INFO(run.printed());
    CHECK(run.exit_status == 1);
    CHECK_THAT(run.err, Catch::Contains("(2 line(s), 1 broken); first broken line 2: no loss field"));
}

TEST_CASE("an OSU collective imported without --ranks is refused naming the option, never busbw 0",
          "[cli][import]") {
    TemporaryFolder folder;
    const std::string osu = SCALEBENCH_SOURCE_DIR "/tests/data/osu/osu_allreduce-n2.txt";
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun without = runConsole(folder, {"import", osu, "--format", "osu", "--db", db});
    INFO(without.printed());
    CHECK(without.exit_status == 1);
    CHECK_THAT(without.err, Catch::Contains("OSU prints no rank count") && Catch::Contains("--ranks N"));
    const ConsoleRun with =
        runConsole(folder, {"import", osu, "--format", "osu", "--ranks", "2", "--db", db});
    INFO(with.printed());
    CHECK(with.exit_status == 0);
    // The failed import did not make the file "already in the store": the second one stored its sizes.
    CHECK_THAT(with.out, !Catch::Contains("already in the store"));
    SessionStore store(db);
    REQUIRE(store.runs(2).size() == 1);
    CHECK_FALSE(store.collectives(store.runs(2)[0].id).empty());
}

TEST_CASE("a file that cannot be read or gives no record is named, and the others are kept",
          "[cli][import]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(
        folder, {"import", SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert_success.log",
                 (folder.path / "missing.log").string(), SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml",
                 "--format", "mllog", "--db", db});
    INFO(run.printed());
    CHECK(run.exit_status == 1);
    CHECK_THAT(run.err,
               Catch::Contains("missing: cannot read") && Catch::Contains("two_ranks: no record in"));
    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 3);
    CHECK(storedWord(runs[0].status) == "ok");
    CHECK(storedWord(runs[1].status) == "failed");
    CHECK(storedWord(runs[2].status) == "failed");
    CHECK(storedWord(store.session(1)->status) == "failed");
}

TEST_CASE("without --format each file is read in the format its content shows, and one none reads says why",
          "[cli][import]") {
    TemporaryFolder folder;
    const std::string data = SCALEBENCH_SOURCE_DIR "/tests/data/";
    const ConsoleRun run = runConsole(folder, {"import", data + "mllog/bert_success.log",
                                               data + "nccl-tests/all_reduce_v2.19.6_two_ranks.txt",
                                               data + "maxtext/llama2-70b-64gpu.log", data + "two_ranks.toml",
                                               "--ranks", "64", "--db", (folder.path / "s.db").string()});
    INFO(run.printed());
    CHECK(run.exit_status == 1); // the plan file is no log
    CHECK_THAT(run.out, Catch::Contains("read as the format each file's content shows"));
    CHECK_THAT(run.out, Catch::Contains("bert_success.log (read as mllog)") &&
                            Catch::Contains("all_reduce_v2.19.6_two_ranks.txt (read as nccl-tests)") &&
                            Catch::Contains("llama2-70b-64gpu.log (read as maxtext)"));
    CHECK_THAT(run.err,
               Catch::Contains("two_ranks.toml: no format reads it (tried nccl-tests, nccl-tests-json, "
                               "osu, mllog, maxtext, metric-stream)"));
}

TEST_CASE(
    "an imported Megatron-LM log read with its shipped format definition gives its steps and validation",
    "[cli][import][pattern]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run =
        runConsole(folder, {"import", SCALEBENCH_SOURCE_DIR "/tests/data/formats/megatron-lm.log", "--format",
                            "megatron-lm", "--ranks", "8", "--db", db});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    CHECK_THAT(run.out, Catch::Contains("4 step(s), 1 evaluation(s)") && Catch::Contains("0 broken line(s)"));
    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    const auto steps = store.steps(runs[0].id);
    REQUIRE(steps.size() == 4);
    CHECK(steps[1].step == 20);
    CHECK(steps[1].step_s == Approx(1.0124));                  // elapsed time per iteration (ms): 1012.4
    CHECK(steps[1].model_flops_per_s == Approx(205.5e12 * 8)); // TFLOP/s/GPU x 8 GPUs
    CHECK(steps[1].samples_per_s == Approx(16 / 1.0124));      // global batch size / step time
    const auto evals = store.evals(runs[0].id);
    REQUIRE(evals.size() == 1);
    CHECK(evals[0].metric == "perplexity");
    CHECK(evals[0].value == Approx(4028.411));

    const ConsoleRun unknown =
        runConsole(folder, {"import", SCALEBENCH_SOURCE_DIR "/tests/data/formats/megatron-lm.log", "--format",
                            "megatron", "--db", db});
    CHECK(unknown.exit_status == 2);
    CHECK_THAT(unknown.err, Catch::Contains("no output format 'megatron'") && Catch::Contains("megatron-lm"));
}

TEST_CASE("ten imported BERT logs score as MLPerf's result summarizer scores them: run 7, aborted after its "
          "evaluation reached the target, counts",
          "[cli][import][mlperf]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    std::vector<std::string> arguments = {"import"};
    for (int k = 0; k < 10; ++k)
        arguments.push_back(SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert-repeats/run-" + std::to_string(k) +
                            ".log");
    for (const char* word : {"--format", "mllog", "--ranks", "8", "--db"})
        arguments.emplace_back(word);
    arguments.push_back(db);
    const ConsoleRun run = runConsole(folder, arguments);
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    // mlperf-logging 4.1.68's compliance check asks run_stop for a status, not for "success"; it fails a run
    // whose evaluations never reached the target (bert: eval_accuracy >= 0.720). Run 7 says "aborted" after
    // reaching 0.7213: the summarizer counts it, so all ten converge and the olympic average of the eight in
    // the middle is 4.8580604166666665 minutes (the times from the logs' run_start and run_stop).
    CHECK_THAT(run.out,
               Catch::Contains("10/10     4.858060     1.00x   100%  olympic average of 8 of 10 runs"));
    SessionStore store(db);
    const auto points = sessionScaling(loadSessionResults(store, 1));
    REQUIRE(points.size() == 1);
    REQUIRE(points[0].mlperf);
    CHECK(*points[0].mlperf->score_min == Approx(4.8580604166666665).epsilon(1e-12));
    CHECK(points[0].mlperf->valid);
}

TEST_CASE("a file imported again is known by its content and not doubled, and a session can be deleted",
          "[cli][import][delete]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    const std::string log = SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert_success.log";
    const auto copy = folder.path / "renamed.log"; // the same content under another name
    std::filesystem::copy_file(log, copy);
    REQUIRE(runConsole(folder, {"import", log, "--format", "mllog", "--session", "first", "--db", db})
                .exit_status == 0);
    const ConsoleRun again =
        runConsole(folder, {"import", copy.string(), "--format", "mllog", "--session", "again", "--db", db});
    INFO(again.printed());
    CHECK(again.exit_status == 0);
    CHECK_THAT(again.out,
               Catch::Contains("renamed.log: already in the store: run 'bert_success' of session 1 "
                               "'first' was imported from a file of the same content"));
    {
        SessionStore store(db);
        CHECK(store.runs(1).size() == 1);
        CHECK(store.runs(2).empty()); // nothing stored twice
    }

    const ConsoleRun deleted = runConsole(folder, {"delete", "first", "--db", db});
    INFO(deleted.printed());
    CHECK(deleted.exit_status == 0);
    CHECK_THAT(deleted.out, Catch::Contains("deleted session 1 'first' (1 run, ok)"));
    {
        SessionStore store(db);
        CHECK_FALSE(store.session(1).has_value());
        CHECK(store.session(2).has_value());
    }
    // Deleted, its file imports again; an unknown session is named.
    CHECK(runConsole(folder, {"import", log, "--format", "mllog", "--db", db}).exit_status == 0);
    const ConsoleRun unknown = runConsole(folder, {"delete", "99", "--db", db});
    CHECK(unknown.exit_status == 2);
    CHECK_THAT(unknown.err, Catch::Contains("99"));
}
