// The console's command line: every command and its old flag form give the same options, and every bad input
// is named with the help to read.
#include "console_options.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace scalebench;
using Arguments = std::vector<std::string>;

namespace {

std::string shown(const Arguments& arguments) {
    std::string text;
    for (const auto& a : arguments)
        text += (text.empty() ? "" : " ") + a;
    return text;
}

// The defaults with what `change` sets; the window's runs folder follows its store (windowRunsFolder).
ConsoleOptions options(const std::function<void(ConsoleOptions&)>& change) {
    ConsoleOptions o = parseConsoleOptions({});
    o.out_dir = "scalebench-out";
    change(o);
    if (o.mode == ConsoleOptions::Mode::Gui) o.out_dir = windowRunsFolder(o.db);
    return o;
}

} // namespace

namespace Catch {
template <> struct StringMaker<ConsoleOptions> {
    static std::string convert(const ConsoleOptions& o) {
        return "{mode " + std::to_string(static_cast<int>(o.mode)) + ", plan '" + o.plan.string() +
               "', file '" + o.cluster_file.string() + "', cluster '" + o.cluster + "', db '" +
               o.db.string() + "', out '" + o.out_dir.string() + "', engine '" + o.engine + "', sources '" +
               o.engine_sources.string() + "', compare " + std::to_string(o.compare_a) + " " +
               std::to_string(o.compare_b) + ", tab '" + o.tab + "', screenshot '" + o.screenshot.string() +
               "', dry-run " + std::to_string(o.dry_run) + ", check " + std::to_string(o.check) + ", poll " +
               std::to_string(o.poll_ms) + ", help '" + o.help_command + "'}";
    }
};
} // namespace Catch

TEST_CASE("console options: each command, its old flag form and options anywhere give the same options",
          "[control][cli]") {
    using Mode = ConsoleOptions::Mode;
    struct Form {
        Arguments command, old_form;
        ConsoleOptions expected;
    };
    const std::vector<Form> forms = {
        {{}, {}, options([](ConsoleOptions&) {})},
        {{"--db", "s.db", "--tab", "scaling", "--screenshot", "x.png"},
         {"--screenshot", "x.png", "--tab", "scaling", "--db", "s.db"},
         options([](ConsoleOptions& o) {
             o.db = "s.db";
             o.tab = "scaling";
             o.screenshot = "x.png";
         })},
        {{"--tab", "projection"}, {"--tab", "projection"}, options([](ConsoleOptions& o) {
             o.tab = "projection"; // the Scaling tab's Projection page
         })},
        {{"run", "plan.toml"}, {"--batch", "plan.toml"}, options([](ConsoleOptions& o) {
             o.mode = Mode::Batch;
             o.plan = "plan.toml";
         })},
        {{"run", "p.toml", "--cluster", "prod", "--dry-run", "--check", "--db", "s.db"},
         {"--batch", "p.toml", "--cluster", "prod", "--dry-run", "--check", "--db", "s.db"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Batch;
             o.plan = "p.toml";
             o.cluster = "prod";
             o.dry_run = o.check = true;
             o.db = "s.db";
         })},
        {{"--db", "s.db", "run", "--out", "o", "p.toml", "--engine", "e", "--engine-sources", "src",
          "--poll-ms", "500"},
         {"--db", "s.db", "--out", "o", "--engine", "e", "--batch", "p.toml", "--engine-sources", "src",
          "--poll-ms", "500"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Batch;
             o.plan = "p.toml";
             o.db = "s.db";
             o.out_dir = "o";
             o.engine = "e";
             o.engine_sources = "src";
             o.poll_ms = 500;
         })},
        {{"run", "--poll-ms=40", "--", "-odd.toml"},
         {"--batch", "-odd.toml", "--poll-ms", "40"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Batch;
             o.plan = "-odd.toml";
             o.poll_ms = 40;
         })},
        {{"compare", "3", "7", "--db", "s.db"},
         {"--compare", "3", "7", "--db", "s.db"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Compare;
             o.compare_a = 3;
             o.compare_b = 7;
             o.db = "s.db";
         })},
        {{"add-clusters", "c.toml"}, {"--add-clusters", "c.toml"}, options([](ConsoleOptions& o) {
             o.mode = Mode::AddClusters;
             o.cluster_file = "c.toml";
         })},
        {{"import", "a.log", "b.log", "--format", "mllog", "--session", "last month", "--ranks", "8"},
         {"--format", "mllog", "import", "--ranks", "8", "a.log", "--session", "last month", "b.log"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Import;
             o.import_files = {"a.log", "b.log"};
             o.format = "mllog";
             o.session_name = "last month";
             o.ranks = 8;
         })},
        {{"report", "nightly", "-o", "n.html", "--db", "s.db"},
         {"--output", "n.html", "report", "--db", "s.db", "nightly"},
         options([](ConsoleOptions& o) {
             o.mode = Mode::Report;
             o.report_session = "nightly";
             o.report_file = "n.html";
             o.db = "s.db";
         })},
        {{"--help"}, {"-h"}, options([](ConsoleOptions& o) { o.mode = Mode::Help; })},
        {{"run", "--help"}, {"--batch", "p.toml", "--help"}, options([](ConsoleOptions& o) {
             o.mode = Mode::Help;
             o.help_command = "run";
         })},
        {{"compare", "-h"}, {"--compare", "1", "2", "--help"}, options([](ConsoleOptions& o) {
             o.mode = Mode::Help;
             o.help_command = "compare";
         })},
        {{"--version"}, {"run", "p.toml", "--version"}, options([](ConsoleOptions& o) {
             o.mode = Mode::Version;
         })},
    };
    for (const auto& form : forms) {
        INFO("scalebench " << shown(form.command) << "  /  scalebench " << shown(form.old_form));
        CHECK(parseConsoleOptions(form.command) == form.expected);
        CHECK(parseConsoleOptions(form.old_form) == form.expected);
    }
}

TEST_CASE(
    "console options: the window's runs go to runs/ beside its store, not to the folder it was started in",
    "[control][cli]") {
    CHECK(parseConsoleOptions({"--db", "/data/sb/sessions.db"}).out_dir == "/data/sb/runs");
    CHECK(parseConsoleOptions({}).out_dir == defaultStorePath().parent_path() / "runs");
    const auto relative = parseConsoleOptions({"--db", "out/scalebench.db"}).out_dir;
    CHECK(relative.is_absolute());
    CHECK(relative == std::filesystem::absolute("out/runs"));
    // A command (run) keeps writing where it is run, as its help says.
    CHECK(parseConsoleOptions({"run", "p.toml", "--db", "/data/sb/sessions.db"}).out_dir == "scalebench-out");
}

TEST_CASE("console options: each bad input is named, with the help to read", "[control][cli]") {
    struct Bad {
        Arguments arguments;
        std::string message, help;
    };
    const std::string all = "scalebench --help", run = "scalebench run --help";
    const std::vector<Bad> bad = {
        {{"--bacth", "plan.toml"}, "unknown option '--bacth'; did you mean --batch?", all},
        {{"run", "p.toml", "--dryrun"}, "unknown option '--dryrun'; did you mean --dry-run?", all},
        {{"-x"}, "unknown option '-x'", all},
        {{"rnu", "p.toml"},
         "unknown command 'rnu' (commands: run, compare, report, project, import, delete, add-clusters); did "
         "you "
         "mean run?",
         all},
        {{"plan.toml"},
         "unknown command 'plan.toml' (commands: run, compare, report, project, import, delete, "
         "add-clusters); to "
         "run a plan: "
         "scalebench run plan.toml",
         all},
        {{"run"}, "run: missing PLAN (run PLAN)", run},
        {{"run", "a.toml", "b.toml"}, "run: unexpected argument 'b.toml'", run},
        {{"--batch"}, "missing value after '--batch'", all},
        {{"--batch", "a.toml", "b.toml"}, "--batch: unexpected argument 'b.toml'", run},
        {{"run", "p.toml", "--db"}, "missing value after '--db'", all},
        {{"run", "p.toml", "--dry-run=yes"}, "unexpected value after '--dry-run'", all},
        {{"compare", "1"}, "compare: missing B (compare A B)", "scalebench compare --help"},
        {{"report"}, "report: missing SESSION (report SESSION)", "scalebench report --help"},
        {{"report", "1", "--out", "d"}, "--out: only with run, not with report", "scalebench report --help"},
        {{"report", "1", "-o", ""}, "--output: empty: give a FILE", "scalebench report --help"},
        {{"delete"}, "delete: missing SESSION (delete SESSION)", "scalebench delete --help"},
        {{"import", "--format", "mllog"}, "import: missing FILE...", "scalebench import --help"},
        {{"import", "a.log", "--format", "osv"},
         "--format: no output format 'osv' (formats: nccl-tests",
         "scalebench import --help"},
        {{"import", "a.log", "--format", "osu", "--ranks", "0"},
         "--ranks: at least 1, not 0",
         "scalebench import --help"},
        {{"compare", "1", "x"}, "compare: 'x' is not a session id", "scalebench compare --help"},
        {{"compare", "0", "2"}, "compare: '0' is not a session id", "scalebench compare --help"},
        {{"--compare", "1", "2x"}, "--compare: '2x' is not a session id", "scalebench compare --help"},
        {{"--compare", "1"}, "--compare: missing B (--compare A B)", "scalebench compare --help"},
        {{"compare", "1", "2", "3"}, "compare: unexpected argument '3'", "scalebench compare --help"},
        {{"add-clusters"}, "add-clusters: missing FILE", "scalebench add-clusters --help"},
        {{"run", "p.toml", "--poll-ms", "abc"}, "--poll-ms: 'abc' is not a number of milliseconds", run},
        {{"run", "p.toml", "--poll-ms", "5"}, "--poll-ms: at least 10, not 5", run},
        {{"--tab", "nosuch"}, "--tab: no tab 'nosuch' (tabs: plan, runs, live,", all},
        {{"run", "p.toml", "--tab", "runs"}, "--tab: only for the window (no command), not with run", run},
        {{"--batch", "p.toml", "--screenshot", "x.png"},
         "--screenshot: only for the window (no command), not with "
         "--batch",
         run},
        {{"--dry-run"}, "--dry-run: only with run", all},
        {{"compare", "1", "2", "--cluster", "prod"},
         "--cluster: only with run, not with compare",
         "scalebench compare --help"},
        {{"run", "p.toml", "--check"}, "--check: only with --dry-run --cluster NAME", run},
        {{"run", "p.toml", "--dry-run", "--check"}, "--check: only with --dry-run --cluster NAME", run},
        {{"--batch", "p.toml", "--compare", "1", "2"}, "--batch and --compare: one command at a time", all},
    };
    for (const auto& b : bad) {
        INFO("scalebench " << shown(b.arguments));
        try {
            parseConsoleOptions(b.arguments);
            FAIL("accepted");
        } catch (const ConsoleUsageError& e) {
            CHECK_THAT(e.what(), Catch::StartsWith(b.message));
            CHECK(e.help_command == b.help);
        }
    }
}

TEST_CASE("console options: the help lists every command, each option with its default, and the exit codes",
          "[control][cli]") {
    const std::string help = consoleUsage();
    for (const char* part : {"scalebench run PLAN",
                             "scalebench compare A B",
                             "scalebench report SESSION",
                             "--output FILE",
                             "(default: report.html)",
                             "scalebench add-clusters FILE",
                             "--db FILE",
                             "--cluster NAME",
                             "--dry-run",
                             "--check",
                             "--out DIR",
                             "(default: scalebench-out)",
                             "--engine PATH",
                             "--engine-sources DIR",
                             "--torch-python PYTHON",
                             "--poll-ms MS",
                             "(default: 250)",
                             "--tab TAB",
                             "--screenshot PNG",
                             "--version",
                             "--help",
                             "Exit codes:",
                             "\n  0 ",
                             "\n  1 ",
                             "\n  2 ",
                             "\n  130 ",
                             "\n  143 ",
                             "--batch PLAN (run)",
                             "--compare A B (compare)",
                             "--add-clusters FILE (add-clusters)"}) {
        INFO(part);
        CHECK_THAT(help, Catch::Contains(part));
    }
    const std::string run = consoleUsage("run");
    CHECK_THAT(run, Catch::StartsWith("usage: scalebench run PLAN") && Catch::Contains("--batch PLAN") &&
                        Catch::Contains("--poll-ms MS") && Catch::Contains("\n  130 ") &&
                        !Catch::Contains("--tab"));
    for (const auto& line : {help, run}) {
        std::size_t start = 0, end = 0;
        while ((end = line.find('\n', start)) != std::string::npos) {
            const std::string one = line.substr(start, end - start);
            INFO(one);
            CHECK(one.size() <= 110);
            start = end + 1;
        }
    }
}
