// The HTML report of a session: the results table's rows, one inline <svg> per chart, nothing fetched from
// outside the page, every stored text escaped; and scalebench report as a user runs it on imported MLPerf
// logs.
#include "console_run.h"
#include "file_text.h"
#include "main_window.h"
#include "session_report.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "temporary_folder.h"

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
    r.status = "ok";
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
    r.status = "ok";
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
    session.status = "ok";
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
    const std::string judged = sessionReportHtml(session, results).toStdString();
    CHECK_THAT(judged, Catch::Contains("id=\"verdicts\"") && Catch::Contains("resnet20-n4-r1") &&
                           Catch::Contains(
                               "samples_per_s 3800 samples/s: pass (reference 4000 samples/s, from 3600"));
}

TEST_CASE("File > Export report writes the shown session's page", "[ui][report]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("sessions.sqlite").toStdString());
    MainWindow empty_window(store);
    CHECK_FALSE(empty_window.exportReport(dir.filePath("none.html")));
    const auto id = store.createSession("night <run>", "[plan]", "local");
    store.finishSession(id, "ok");
    MainWindow window(store);
    QSignalSpy loaded(window.storedSessions(), &StoredSessionLoader::sessionLoaded);
    REQUIRE(loaded.wait(10'000));
    const auto actions = window.findChildren<QAction*>();
    CHECK(std::any_of(actions.begin(), actions.end(),
                      [](const QAction* a) { return a->text() == "Export &report..."; }));
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
                         Catch::Contains("<td>4.87 min</td>"));
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
