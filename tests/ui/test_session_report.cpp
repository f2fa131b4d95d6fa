// The HTML report of a session: the results table's rows, one inline <svg> per chart, nothing fetched from
// outside the page, every stored text escaped; and scalebench report as a user runs it on imported MLPerf
// logs.
#include "console_run.h"
#include "file_text.h"
#include "main_window.h"
#include "projection_fixture.h"
#include "results_table.h"
#include "session_report.h"
#include "session_results.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"
#include "widget_testing.h"

#include <QAction>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>

using namespace scalebench;

namespace {

RunResult trainingRun(const std::string& name, const std::string& workload, int ranks, int repeat,
                      double samples_per_s) {
    RunResult r;
    r.name = name;
    r.workload = workload;
    r.dataset = "synthetic";
    r.ranks = ranks;
    r.repeat = repeat;
    r.status = RunStatus::Ok;
    const double s = 256.0 * ranks / samples_per_s;
    r.figures.steady_steps = 40;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown = {s, 0.05 * s, 0.3 * s, 0.45 * s, 0.1 * s, 0.1 * s, 0.02 * s};
    r.figures.final_loss = 0.4;
    return r;
}

RunResult collectiveSweep(int ranks) {
    RunResult r;
    r.name = "allreduce-n" + std::to_string(ranks);
    r.workload = "allreduce";
    r.ranks = ranks;
    r.status = RunStatus::Ok;
    for (std::int64_t bytes = 1024; bytes <= (std::int64_t{1} << 20); bytes *= 4) {
        CollectiveRecord c;
        c.backend = "nccl";
        c.collective = "allreduce";
        c.dtype = "float32";
        c.ranks = ranks;
        c.bytes = bytes;
        c.elements = bytes / 4;
        c.repetitions = 20;
        c.time_s = 8e-6 + bytes / 40e9;
        c.algbw_gbps = bytes / c.time_s / 1e9;
        c.busbw_gbps = c.algbw_gbps * 2.0 * (ranks - 1) / ranks;
        c.correct = true;
        r.collectives.push_back(c);
    }
    return r;
}

// A stored run of resnet20 on `ranks` ranks (two a node: node1, node2, ...) at `speed` x 500 samples/s, with
// per-rank times in which rank 3, where there is one, computes `slow` times as long as the others.
void storeRun(SessionStore& store, std::int64_t session, int ranks, int repeat, double speed, double slow) {
    const std::string name = "resnet20-n" + std::to_string(ranks) + "-r" + std::to_string(repeat);
    const auto id = store.createRun(session, {name, "resnet20", "synthetic", ranks, repeat, "mpirun ..."});
    store.startRun(id, "42");
    std::string hosts;
    for (int rank = 0; rank < ranks; ++rank)
        hosts += (rank ? "," : "") + std::string(R"({"rank":)") + std::to_string(rank) + R"(,"host":"node)" +
                 std::to_string(1 + rank / 2) + "\"}";
    std::vector<MetricRecord> records{
        HeaderRecord{1, "resnet20", "synthetic", ranks, R"({"type":"header","hosts":[)" + hosts + "]}"}};
    const double step_s = 0.05 / speed; // seconds
    for (int i = 1; i <= 20; ++i) {
        records.push_back(StepRecord{i, 1.0, 500 * speed, step_s, 0.01, 0.01, 0.02, 0.0, 0.001, step_s * i,
                                     0.0, 0.0, 0.0, std::nullopt});
        RankTimesRecord times{i, {}, {}};
        for (int rank = 0; rank < ranks; ++rank) {
            times.step_s.push_back(step_s);
            times.compute_s.push_back((0.030 + 0.0001 * ((rank + i) % 3)) * (rank == 3 ? slow : 1.0));
        }
        records.push_back(times);
    }
    store.appendRecords(id, records);
    store.finishRun(id, {RunStatus::Ok, "", 0, ""});
}

// Two sessions of the plan "nightly" in `db`: session 1 at full speed, session 2 at 80 % of it with rank 3
// (on node2) computing 40 % longer; three repeats at 4 ranks, one at 2.
void storeNightlyPair(const std::filesystem::path& db) {
    SessionStore store(db);
    for (const double speed : {1.0, 0.8}) {
        const auto session = store.createSession("nightly", "name = \"nightly\"\n", "local");
        for (int repeat = 0; repeat < 3; ++repeat)
            storeRun(store, session, 4, repeat, speed * (1 + 0.01 * repeat), speed < 1 ? 1.4 : 1.0);
        storeRun(store, session, 2, 0, speed, 1.0);
        store.finishSession(session, SessionStatus::Ok);
    }
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

} // namespace

TEST_CASE("a session's report holds its results rows, one inline svg per chart and escaped names",
          "[ui][report]") {
    SessionRow session;
    session.id = 7;
    session.name = "<script>alert(1)</script> & \"tuning\"";
    session.started_at = "2026-11-26T09:00:00Z";
    session.status = SessionStatus::Ok;
    session.cluster = "lab<1>";
    session.plan_text = "[plan]\nname = \"a<b\"\n";
    std::vector<RunResult> results;
    for (int ranks : {1, 2, 4})
        for (int repeat : {0, 1})
            results.push_back(
                trainingRun("resnet20-n" + std::to_string(ranks) + "-r" + std::to_string(repeat), "resnet20",
                            ranks, repeat, 1000.0 * ranks * (repeat ? 0.95 : 0.9)));
    results.back().error = "node <x> lost";
    results.push_back(collectiveSweep(2));
    results.push_back(collectiveSweep(4));

    const std::string html = sessionReportHtml(session, results).toStdString();
    CHECK(html.starts_with("<!DOCTYPE html>"));
    // The results table: one row per run, with its figures.
    CHECK(count(html, "<tr class=\"run\">") == results.size());
    CHECK_THAT(html, Catch::Contains("<td>resnet20-n4-r1</td><td>4</td><td>ok</td><td>3800.0</td>"));
    // Its columns are the terminal table's, named by the figure registry's rows.
    std::string header = "<th>run</th><th>ranks</th><th>status</th>";
    for (const std::string& name : resultsFigureHeaders())
        header += "<th>" + name + "</th>";
    CHECK_THAT(html, Catch::Contains(header + "</tr></thead>"));
    CHECK_THAT(html, Catch::Contains("collective sweep: 6 sizes"));
    // Scaling and speedup (one series), breakdown (one workload), collectives: four charts.
    CHECK(count(html, "<svg") == 4);
    CHECK(count(html, "</svg>") == 4);
    CHECK_THAT(html, Catch::Contains("id=\"scaling\"") && Catch::Contains("id=\"breakdown\"") &&
                         Catch::Contains("id=\"collectives\""));
    CHECK_THAT(html, !Catch::Contains("id=\"mlperf\""));
    // Self-contained: no URL, no script, no outside file.
    CHECK_FALSE(std::regex_search(html, std::regex("https?://", std::regex::icase)));
    CHECK_THAT(html, !Catch::Contains("<script") && !Catch::Contains("<link") && !Catch::Contains("src="));
    // The store's text is escaped wherever it appears.
    CHECK_THAT(html, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;tuning&quot;"));
    CHECK_THAT(html, Catch::Contains("lab&lt;1&gt;") && Catch::Contains("name = &quot;a&lt;b&quot;") &&
                         Catch::Contains("error: node &lt;x&gt; lost"));

    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("report.html");
    QString error;
    REQUIRE(writeSessionReport(session, results, path, &error));
    CHECK(fileText(path.toStdString()) == html);
    CHECK_FALSE(writeSessionReport(session, results, dir.filePath("no/such/folder/report.html"), &error));
    CHECK_THAT(error.toStdString(), Catch::Contains("no/such/folder/report.html"));
    CHECK_THAT(html, !Catch::Contains("id=\"verdicts\"")); // its plan has no [[reference]]

    // A plan with references: each run's verdict in the page.
    session.plan_text =
        "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4]\n[[reference]]\n"
        "workload = \"resnet20\"\nranks = 4\nfigure = \"samples_per_s\"\nvalue = 4000\nlower = -0.1\n";
    session.stored_plan = readStoredPlan(session.id, session.plan_text); // as the store reads it
    const std::string judged = sessionReportHtml(session, results).toStdString();
    CHECK_THAT(judged, Catch::Contains("id=\"verdicts\"") && Catch::Contains("resnet20-n4-r1") &&
                           Catch::Contains(
                               "samples_per_s 3800 samples/s: pass (reference 4000 samples/s, from 3600"));
}

TEST_CASE("the report says what ran: what every run shares once, then each run's own", "[ui][report]") {
    SessionRow session;
    session.id = 3;
    session.name = "capsules";
    session.plan_text = "name = \"capsules\"\n";
    auto runRow = [](const std::string& name, const std::string& host) {
        RunRow run;
        run.name = name;
        run.command = "#!/bin/bash\nsrun --container-image=nvcr.io/nvidia/pytorch:25.01-py3 engine <x>\n";
        run.header_json =
            R"({"versions":{"engine":"0.1.0","source":"5d41402abc4b2a76"},"hosts":[{"rank":0,"host":")" +
            host + R"("}],"environment":{"NCCL_ALGO":"Ring"}})";
        run.nodes = host;
        return run;
    };
    const std::vector<RunCapsule> capsules = {runCapsule(session, runRow("r1", "node1")),
                                              runCapsule(session, runRow("r2", "node2"))};
    const std::string html = sessionReportHtml(session, {}, std::nullopt, capsules).toStdString();
    CHECK_THAT(html,
               Catch::Contains("<section id=\"capsule\">") && Catch::Contains("<h3>Every run (2)</h3>"));
    CHECK_THAT(html,
               Catch::Contains("<tr><th>engine source</th><td class=\"note\">5d41402abc4b2a76</td></tr>"));
    CHECK_THAT(
        html, Catch::Contains("<th>container.image</th><td class=\"note\">nvcr.io/nvidia/pytorch:25.01-py3"));
    CHECK_THAT(html, Catch::Contains("<th>environment.NCCL_ALGO</th><td class=\"note\">Ring</td>"));
    CHECK_THAT(html, Catch::Contains("<pre class=\"plan\">#!/bin/bash\nsrun --container-image=nvcr.io/nvidia/"
                                     "pytorch:25.01-py3 engine &lt;x&gt;\n</pre>")); // escaped
    CHECK_THAT(html, Catch::Contains("<h3>r1</h3>\n<table class=\"capsule\">\n<tbody>\n<tr><th>nodes</th><td "
                                     "class=\"note\">node1</td></tr>"));
    CHECK_THAT(html, Catch::Contains("<h3>r2</h3>"));
    CHECK_THAT(sessionReportHtml(session, {}).toStdString(), !Catch::Contains("id=\"capsule\""));
}

TEST_CASE("File > Export report writes the shown session's page", "[ui][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    MainWindow empty_window(store);
    CHECK_FALSE(empty_window.exportReport(dir.filePath("none.html")));
    const auto id = store.createSession("night <run>", "[plan]", "local");
    store.finishSession(id, SessionStatus::Ok);
    MainWindow window(store);
    QSignalSpy loaded(&window, &MainWindow::sessionShown);
    REQUIRE(loaded.wait(10'000));
    CHECK(hasAction(window, "Export &report..."));
    const QString path = dir.filePath("night.html");
    REQUIRE(window.exportReport(path));
    CHECK_THAT(fileText(path.toStdString()),
               Catch::Contains("<h1>scalebench session 1: night &lt;run&gt;</h1>") &&
                   Catch::Contains("<dt>cluster</dt><dd>local</dd>"));
}

TEST_CASE("scalebench report writes the page of imported MLPerf runs and names an unknown session",
          "[cli][report]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    std::vector<std::string> import = {"import",    "--format",       "mllog", "--ranks", "8",
                                       "--session", "bert <10 runs>", "--db",  db};
    for (int i = 0; i < 10; ++i)
        import.push_back(SCALEBENCH_SOURCE_DIR "/tests/data/mllog/bert-repeats/run-" + std::to_string(i) +
                         ".log");
    const ConsoleRun imported = runConsole(folder, import);
    INFO(imported.printed());
    REQUIRE(imported.exit_status == 0);

    const std::string page = (folder.path / "bert.html").string();
    const ConsoleRun by_name = runConsole(folder, {"report", "bert <10 runs>", "--db", db, "-o", page});
    INFO(by_name.printed());
    REQUIRE(by_name.exit_status == 0);
    CHECK_THAT(by_name.out, Catch::Contains("report of session 1 (bert <10 runs>, 10 runs): " + page));
    const std::string html = fileText(page);
    CHECK(count(html, "<tr class=\"run\">") == 10);
    CHECK_THAT(html, Catch::Contains("<td>run-0</td><td>8</td><td>ok</td>"));
    CHECK_THAT(html, Catch::Contains("id=\"mlperf\"") &&
                         Catch::Contains("<td>bert</td><td>8</td><td>10</td>") &&
                         Catch::Contains("<td>4.858060 min</td>"));
    CHECK_THAT(html, Catch::Contains("bert &lt;10 runs&gt;") && !Catch::Contains("bert <10"));
    CHECK_FALSE(std::regex_search(html, std::regex("https?://", std::regex::icase)));

    const ConsoleRun by_id = runConsole(folder, {"report", "1", "--db", db, "--output", page + ".2"});
    CHECK(by_id.exit_status == 0);
    CHECK(fileText(page + ".2") == html);

    const ConsoleRun unknown = runConsole(folder, {"report", "nightly", "--db", db, "-o", page + ".3"});
    CHECK(unknown.exit_status == 2);
    CHECK_THAT(unknown.err, Catch::Contains("no session 'nightly'"));
    CHECK_FALSE(std::filesystem::exists(page + ".3"));
}

// The report judges every figure against a baseline session, with its interval and verdict.
TEST_CASE("a report with a baseline lists each judged figure with both medians, the interval and the verdict",
          "[ui][report]") {
    TemporaryFolder folder;
    storeNightlyPair(folder.path / "s.db");
    const SessionStore store(folder.path / "s.db");
    const auto base = store.session(1), current = store.session(2);
    REQUIRE(base);
    REQUIRE(current);
    const std::vector<RunResult> results = loadSessionResults(store, 2);
    const ReportBaseline baseline{"1", base, loadSessionResults(store, 1)};

    const std::string html = sessionReportHtml(*current, results, baseline).toStdString();
    CHECK_THAT(html, Catch::Contains("<section id=\"regressions\">") &&
                         Catch::Contains("<h2>Regressions against session 1: nightly ("));
    // samples/s at 4 ranks: 500 -> 400 of the middle repeats, three a side, wholly beyond 5 %: a regression.
    const std::regex regressed(
        "<tr class=\"regression\"><td>[^<]*</td><td>4</td><td>samples/s</td>"
        "<td>505</td><td>404</td><td>-20\\.0 %</td><td>\\[-2\\d\\.\\d %, -1\\d\\.\\d %\\]"
        "</td><td>3 vs 3</td><td><strong>REGRESSION</strong></td></tr>");
    CHECK(std::regex_search(html, regressed));
    CHECK_THAT(html, Catch::Contains("<td>step time (ms)</td>"));
    // At 2 ranks one repeat a side: cannot tell.
    CHECK(
        std::regex_search(html, std::regex("<tr class=\"cannot-tell\"><td>[^<]*</td><td>2</td><td>samples/s"
                                           "</td><td>500</td><td>400</td><td>-</td><td>-</td><td>1 vs 1</td>"
                                           "<td>cannot tell</td></tr>")));
    CHECK_THAT(html,
               Catch::Contains("regressed, 0 improved.</p>") && Catch::Contains("beyond 5 % (the plan's"));

    // Without a baseline there is no such section; with "last" finding none, the page says so.
    CHECK_THAT(sessionReportHtml(*current, results).toStdString(), !Catch::Contains("id=\"regressions\""));
    CHECK_THAT(sessionReportHtml(*current, results, ReportBaseline{"last"}).toStdString(),
               Catch::Contains("No baseline: no earlier session of 'nightly' on local ended ok."));
}

// Stragglers named in the report, from stored per-rank times.
TEST_CASE("the report's slow-rank section names the slowed rank and its node, and says where it cannot tell",
          "[ui][report]") {
    TemporaryFolder folder;
    storeNightlyPair(folder.path / "s.db");
    const SessionStore store(folder.path / "s.db");
    const std::string slowed =
        sessionReportHtml(*store.session(2), loadSessionResults(store, 2)).toStdString();
    CHECK_THAT(slowed, Catch::Contains("<section id=\"slow-ranks\">") &&
                           Catch::Contains("<h2>Slow ranks and nodes</h2>"));
    // Rank 3 on node2: median compute 42.14 ms (30.1 x 1.4) against the ranks' median 30.10 ms.
    CHECK_THAT(slowed,
               Catch::Contains("<tr class=\"slow\"><td>resnet20-n4-r0</td><td>4</td><td>3</td><td>node2"
                               "</td><td>42.14</td><td>30.10</td>"));
    CHECK(count(slowed, "slow node: <strong>node2</strong>") == 3);
    CHECK_THAT(slowed, Catch::Contains("cannot tell: 2 ranks, fewer than 3: nothing to compare against"));
    CHECK_THAT(slowed, Catch::Contains("M + 3 x 1.4826 x MAD"));

    const std::string even = sessionReportHtml(*store.session(1), loadSessionResults(store, 1)).toStdString();
    CHECK(count(even, "none flagged") == 3);
    CHECK_THAT(even, !Catch::Contains("<tr class=\"slow\">"));
}

TEST_CASE("scalebench report --baseline judges against the named session and refuses an unknown one",
          "[cli][report]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    storeNightlyPair(db);
    const std::string page = (folder.path / "r.html").string();

    for (const std::string baseline : {"1", "last", "nightly"}) { // an id, last, a name
        const ConsoleRun judged =
            runConsole(folder, {"report", "2", "--db", db, "--baseline", baseline, "-o", page});
        INFO(judged.printed());
        REQUIRE(judged.exit_status == 0);
        CHECK_THAT(judged.out, Catch::Contains("against session 1 (nightly)"));
        CHECK_THAT(fileText(page), Catch::Contains("<h2>Regressions against session 1: nightly") &&
                                       Catch::Contains("<strong>REGRESSION</strong>"));
        std::filesystem::remove(page);
    }

    const ConsoleRun unknown =
        runConsole(folder, {"report", "2", "--db", db, "--baseline", "last-week", "-o", page});
    CHECK(unknown.exit_status == 2);
    CHECK_THAT(unknown.err, Catch::Contains("no baseline session 'last-week'"));
    CHECK_FALSE(std::filesystem::exists(page));

    const ConsoleRun help = runConsole(folder, {"report", "--help"});
    CHECK_THAT(help.out, Catch::Contains("--baseline SESSION"));
}

// Per training series, the model's table and each bucket's measured all-reduce against the sweep.
TEST_CASE("the report's Projection section holds the model's table and the buckets' check with its reading",
          "[ui][report]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const SessionRow session = *store.session(storeProjectionFixture(store));
    const std::vector<RunResult> results = loadSessionResults(store, session.id);
    std::vector<SeriesModelInputs> inputs = sessionModelInputs(store, session);
    REQUIRE(inputs.size() == 1);
    CHECK_THAT(sessionReportHtml(session, results).toStdString(), !Catch::Contains("id=\"projection\""));

    const std::string html =
        sessionReportHtml(session, results, std::nullopt, {}, {inputs, ""}).toStdString();
    CHECK_THAT(html, Catch::Contains("<section id=\"projection\">\n<h2>Projection</h2>") &&
                         Catch::Contains("<h3>resnet20 fashion-mnist (backend mpi)</h3>"));
    // The measured rank counts, then 2, 8 and 64 x the largest: 1, 2, 4, 16, 128
    // (tests/core/test_session_projection.cpp's fixed numbers: 683.6 samples/s predicted at 1 rank, 800.6 at
    // 2 against 789.9 measured).
    CHECK(reportProjectionRanks(inputs[0].inputs) == std::vector<int>{1, 2, 4, 16, 128});
    CHECK_THAT(html, Catch::Contains("<tr class=\"predicted\"><td>1</td><td>predicted</td>"));
    CHECK_THAT(html, Catch::Contains("<td>800.6</td>") && Catch::Contains("<td>789.9</td><td>+1.4 %</td>"));
    CHECK_THAT(html, Catch::Contains("<tr class=\"extrapolated\"><td>128</td><td>extrap.</td>"));
    CHECK_THAT(html, Catch::Contains("more ranks on a node than its 2 CPUs"));
    CHECK_THAT(html, !Catch::Contains("<th>cost/h</th>")); // no price per GPU-hour

    // Bucket 0 at 2 ranks: 1.917 ms measured against the sweep's 0.054 ms, and what that means.
    CHECK_THAT(html, Catch::Contains("<tr><td>2</td><td>0</td><td>298.5 KB</td><td>1.917</td><td>0.054</td>"
                                     "<td>interpolated</td><td>35.48x</td></tr>"));
    CHECK_THAT(html,
               Catch::Contains("<p class=\"bucket-reading fail\">" +
                               describeBucketReading(readBucketChecks(checkBuckets(inputs[0]))) + ".</p>"));
    CHECK_THAT(html,
               Catch::Contains("buckets' all-reduce takes 15x-35x the sweep's time (median 19x): slower "
                               "than the sweep, the training's communication does not run at the "
                               "fabric's speed.</p>"));

    inputs[0].inputs.price_per_gpu_hour = 2.5; // another helper's cluster setting: the cost columns show
    CHECK_THAT(sessionReportHtml(session, results, std::nullopt, {}, {inputs, ""}).toStdString(),
               Catch::Contains("<th>cost/h</th><th>cost/train</th>") && Catch::Contains("<td>5.00</td>"));

    // No sweep: the section says why, in the table's and the buckets' place.
    inputs[0].inputs.sweep.clear();
    const std::string unswept =
        sessionReportHtml(session, results, std::nullopt, {}, {inputs, ""}).toStdString();
    CHECK_THAT(unswept, Catch::Contains("<p class=\"missing\">Not projected: ") &&
                            Catch::Contains("no all-reduce sweep"));
    CHECK_THAT(unswept, Catch::Contains("no float32 all-reduce sweep over mpi in the session"));
    CHECK_THAT(sessionReportHtml(session, results, std::nullopt, {}, {{}, "disk I/O error"}).toStdString(),
               Catch::Contains("Cannot read the model's inputs: disk I/O error"));
}

TEST_CASE("scalebench report projects the stored session", "[cli][report]") {
    TemporaryFolder folder;
    const std::filesystem::path db = folder.path / "s.db";
    {
        SessionStore store(db);
        storeProjectionFixture(store);
    }
    const std::string page = (folder.path / "r.html").string();
    const ConsoleRun report = runConsole(folder, {"report", "1", "--db", db.string(), "-o", page});
    INFO(report.printed());
    REQUIRE(report.exit_status == 0);
    CHECK_THAT(fileText(page), Catch::Contains("<h2>Projection</h2>") &&
                                   Catch::Contains("<td>298.5 KB</td><td>1.917</td><td>0.054</td>") &&
                                   Catch::Contains("the training's communication does not run"));
}

TEST_CASE("a report of a session whose stored plan no longer reads says so where its verdicts would be",
          "[ui][report]") {
    SessionRow session;
    session.id = 3;
    session.name = "old";
    session.status = SessionStatus::Ok;
    session.plan_text = "name = \"old\"\n[[run]]\nworkload = \"resnet21\"\nranks = [1]\n"
                        "[[reference]]\nworkload = \"resnet21\"\nfigure = \"samples_per_s\"\nvalue = 100\n";
    session.stored_plan = readStoredPlan(session.id, session.plan_text);
    const std::string html =
        sessionReportHtml(session, {trainingRun("resnet21-n1-r1", "resnet21", 1, 0, 100)}).toStdString();
    CHECK_THAT(html, Catch::Contains("<h2>Verdicts</h2>") &&
                         Catch::Contains("None: the plan stored with session 3 no longer reads") &&
                         Catch::Contains("unknown workload 'resnet21'"));
}
