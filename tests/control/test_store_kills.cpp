// kill -9 of `scalebench --batch` at random moments while it writes its session store: the store passes
// PRAGMA integrity_check after every kill, every record the console printed as stored is there, none is
// stored twice or in another run, and the next start collects what the killed session's jobs went on writing.
// The runs replay a recorded engine stream (tests/support/replayed_stream.h), so that a kill costs a second,
// not a training. SCALEBENCH_STORE_KILLS sets the number of kills (make test: 20; make soak: 1000).
#include "child_process.h"
#include "replayed_stream.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <thread>

using namespace scalebench;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kRuns = 3;            // runs a session, one after the other: run k replays seed k's recording
constexpr int kKillsPerStore = 100; // a fresh store after this many kills, so that checks stay fast
constexpr double kLinesPerSecond = 2000; // 806 lines: 0.4 s of writing a run, read every 10 ms

// "ok", or what PRAGMA integrity_check found: its connection is opened as a user's sqlite3 shell would.
std::string integrityCheck(const std::filesystem::path& db) {
    sqlite3* raw = nullptr;
    if (sqlite3_open_v2(db.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        const std::string error = raw ? sqlite3_errmsg(raw) : "cannot open";
        sqlite3_close(raw);
        return error;
    }
    std::string result;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(raw, "PRAGMA integrity_check", -1, &statement, nullptr) != SQLITE_OK) {
        result = sqlite3_errmsg(raw);
    } else {
        while (sqlite3_step(statement) == SQLITE_ROW)
            result += (result.empty() ? "" : "; ") +
                      std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        sqlite3_finalize(statement);
    }
    sqlite3_close(raw);
    return result;
}

// What a console printed as stored: "session N '...'", then "[run i/n] NAME: step S/M ..." once the step's
// records are committed, and "[run i/n] NAME: done" once all of a run's are.
struct Acknowledged {
    std::int64_t session = 0;
    std::map<int, std::vector<std::int64_t>> steps; // by run index (1-based)
    std::set<int> done;
};

Acknowledged acknowledgedIn(const std::string& printed) {
    static const std::regex session_line(R"(^session (\d+) ')");
    static const std::regex step_line(R"(^\[run (\d+)/\d+\] [^:]+: step (\d+)/)");
    static const std::regex done_line(R"(^\[run (\d+)/\d+\] [^:]+: done$)");
    Acknowledged found;
    std::istringstream lines(printed);
    std::string line;
    std::smatch m;
    while (std::getline(lines, line)) {
        if (lines.eof()) break; // a last line without its newline was not printed whole
        if (std::regex_search(line, m, session_line))
            found.session = std::stoll(m[1]);
        else if (std::regex_search(line, m, step_line))
            found.steps[std::stoi(m[1])].push_back(std::stoll(m[2]));
        else if (std::regex_search(line, m, done_line))
            found.done.insert(std::stoi(m[1]));
    }
    return found;
}

struct KillFigures {
    int kills = 0;       // consoles killed while they ran
    int ended_first = 0; // consoles that ended before their kill came
    int integrity_checks = 0, integrity_failures = 0;
    std::int64_t acknowledged_steps = 0, acknowledged_missing = 0, acknowledged_runs_incomplete = 0;
    int killed_with_records = 0; // kills that came once the session had stored some records
    StoreTally tally;            // over every run of every store, at the end
};

class KilledBatches {
  public:
    explicit KilledBatches(const TemporaryFolder& folder) : folder_(folder) {
        engine_ = writeReplayEngine(folder.path, kLinesPerSecond);
        plan_ = folder.path / "plan.toml";
        std::ofstream plan(plan_);
        plan << "name = \"kills\"\n";
        for (int seed = 1; seed <= kRuns; ++seed)
            plan
                << "[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\nranks = 1\nsteps = 400\n"
                << "batch_per_rank = 4\nthreads_per_rank = 1\nseed = " << seed << "\n";
    }

    std::filesystem::path store(int index) const {
        return folder_.path / fmt::format("store-{}.db", index / kKillsPerStore);
    }

    std::unique_ptr<ChildProcess> start(const std::filesystem::path& db) const {
        return std::make_unique<ChildProcess>(
            std::vector<std::string>{SCALEBENCH_CLI_PATH, "--batch", plan_.string(), "--db", db.string(),
                                     "--out", (folder_.path / "out").string(), "--engine", engine_.string(),
                                     "--poll-ms", "10"},
            log_.string(), log_.string() + ".err");
    }
    std::string printed() const { return fileText(log_); }

  private:
    const TemporaryFolder& folder_;
    std::filesystem::path engine_, plan_;
    std::filesystem::path log_ = folder_.path / "console.log";
};

// Every printed step of the killed session is stored in its run; every run printed done holds the whole
// recording.
void checkAcknowledged(const SessionStore& store, const Acknowledged& printed,
                       const std::map<std::int64_t, Recording>& recordings, KillFigures& figures) {
    if (printed.session == 0) return;
    const auto runs = store.runs(printed.session);
    for (const auto& [index, steps] : printed.steps) {
        REQUIRE(index <= static_cast<int>(runs.size()));
        std::set<std::int64_t> stored;
        for (const auto& step : store.steps(runs[static_cast<std::size_t>(index - 1)].id))
            stored.insert(step.step);
        for (const std::int64_t step : steps) {
            ++figures.acknowledged_steps;
            figures.acknowledged_missing += stored.count(step) ? 0 : 1;
        }
    }
    for (const int index : printed.done)
        figures.acknowledged_runs_incomplete +=
            compareWithRecording(store, runs.at(static_cast<std::size_t>(index - 1)).id, recordings.at(index))
                    .complete()
                ? 0
                : 1;
}

} // namespace

TEST_CASE("kill -9 of --batch while it writes the store: integrity_check ok every time, nothing printed as "
          "stored is missing, nothing doubled",
          "[integration][cli][store-kills]") {
    const int kills = countFromEnvironment("SCALEBENCH_STORE_KILLS", 20);
    const auto seed = static_cast<unsigned>(countFromEnvironment("SCALEBENCH_KILLS_SEED", 20261126));
    const auto recordings = readRecordings();
    TemporaryFolder folder;
    KilledBatches batches(folder);

    // One session to its end gives the time a kill is drawn in, and shows the replay stores the recording.
    const auto calibration_db = folder.path / "calibration.db";
    const auto calibration_start = Clock::now();
    const ChildExit calibration = batches.start(calibration_db)->wait();
    const double session_s = std::chrono::duration<double>(Clock::now() - calibration_start).count();
    INFO(batches.printed());
    REQUIRE(calibration.status == 0);
    {
        SessionStore store(calibration_db);
        const auto runs = store.runs(1);
        REQUIRE(runs.size() == kRuns);
        for (std::size_t k = 0; k < runs.size(); ++k) {
            CHECK(storedWord(runs[k].status) == "ok");
            CHECK(compareWithRecording(store, runs[k].id, recordings.at(static_cast<std::int64_t>(k) + 1))
                      .complete());
        }
    }

    std::mt19937 random(seed);
    std::uniform_real_distribution<double> moment(0.0, session_s);
    KillFigures figures;
    std::vector<std::string> failures;
    for (int i = 0; i < kills; ++i) {
        const auto db = batches.store(i);
        auto console = batches.start(db);
        std::this_thread::sleep_for(std::chrono::duration<double>(moment(random)));
        if (console->poll().exited) {
            ++figures.ended_first;
        } else {
            ::kill(console->pid(), SIGKILL); // the console alone, as `kill -9 PID` does: its mpirun lives on
            ++figures.kills;
        }
        console->wait();
        const std::string integrity = integrityCheck(db);
        ++figures.integrity_checks;
        if (integrity != "ok") {
            ++figures.integrity_failures;
            failures.push_back(fmt::format("kill {}: integrity_check: {}", i + 1, integrity));
            continue;
        }
        SessionStore store(db);
        const Acknowledged printed = acknowledgedIn(batches.printed());
        const std::int64_t missing_before = figures.acknowledged_missing;
        const std::int64_t incomplete_before = figures.acknowledged_runs_incomplete;
        checkAcknowledged(store, printed, recordings, figures);
        if (figures.acknowledged_missing != missing_before ||
            figures.acknowledged_runs_incomplete != incomplete_before)
            failures.push_back(
                fmt::format("kill {}: printed records missing from session {}", i + 1, printed.session));
        if (printed.session > 0) {
            std::int64_t stored = 0;
            for (const auto& run : store.runs(printed.session))
                stored += run.step_count;
            figures.killed_with_records += stored > 0 ? 1 : 0;
        }
    }

    // A last session on each store to its end: it resolves the session the last kill left, collecting what
    // its jobs wrote. Then every run of every session is the recording, or a prefix of it for runs whose
    // replay was stopped with its console's mpirun.
    for (int s = 0; s * kKillsPerStore < kills; ++s) {
        const auto db = batches.store(s * kKillsPerStore);
        CHECK(batches.start(db)->wait().status == 0);
        CHECK(integrityCheck(db) == "ok");
        SessionStore store(db);
        for (const auto& session : store.sessions()) {
            CHECK(storedWord(session.status) != "running");
            const auto runs = store.runs(session.id);
            for (std::size_t k = 0; k < runs.size(); ++k)
                figures.tally.add(
                    compareWithRecording(store, runs[k].id, recordings.at(static_cast<std::int64_t>(k) + 1)));
        }
    }

    reportFigure(
        fmt::format("kill -9 of --batch: {} kills ({} consoles ended before their kill), drawn "
                    "uniformly in the {:.2f} s of a whole session; {} kills came after records were stored",
                    figures.kills, figures.ended_first, session_s, figures.killed_with_records));
    reportFigure(fmt::format("PRAGMA integrity_check: {} run, {} failed", figures.integrity_checks,
                             figures.integrity_failures));
    reportFigure(fmt::format(
        "records printed as stored: {} steps, {} missing; runs printed done but incomplete: {}",
        figures.acknowledged_steps, figures.acknowledged_missing, figures.acknowledged_runs_incomplete));
    reportFigure(
        fmt::format("at the end, {} runs in {} store(s): {} whole, {} steps stored, {} lost, {} doubled, "
                    "{} foreign, {} with evaluations not the recording's",
                    figures.tally.runs, (kills + kKillsPerStore - 1) / kKillsPerStore,
                    figures.tally.complete_runs, figures.tally.stored, figures.tally.lost,
                    figures.tally.doubled, figures.tally.foreign, figures.tally.evals_wrong));
    for (const auto& failure : failures)
        reportFigure(failure);

    CHECK(failures.empty());
    CHECK(figures.integrity_failures == 0);
    CHECK(figures.acknowledged_missing == 0);
    CHECK(figures.acknowledged_runs_incomplete == 0);
    CHECK(figures.tally.lost == 0);
    CHECK(figures.tally.doubled == 0);
    CHECK(figures.tally.foreign == 0);
    CHECK(figures.tally.evals_wrong == 0);
    // The kills came while the console wrote (the figure above says how many after it had stored records).
    CHECK(figures.kills >= kills * 3 / 4);
    CHECK(figures.killed_with_records > 0);
    CHECK(figures.acknowledged_steps > 0);
}
