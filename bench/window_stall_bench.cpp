// Event-loop stalls of the main window at scale: a real SQLite store holding a 1000-run session is opened in
// the real MainWindow (offscreen), the session is selected and loads, then another is selected after it; then
// a 1000-run session streams its records through the window's live path. A 1 ms heartbeat timer records the
// gaps between event-loop turns; the longest gap is the longest time the window could not answer input. Peer:
// the 50 ms stall budget.
#include "live_view.h"
#include "main_window.h"
#include "run_progress_model.h"
#include "session_controller.h"
#include "session_store.h"
#include "stored_session_loader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using namespace scalebench;

namespace {

constexpr double kStallBudgetMs = 50;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// A 1 ms timer that notes how long each turn of the event loop kept it waiting.
class EventLoopHeartbeat {
  public:
    EventLoopHeartbeat() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(1);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const double now = static_cast<double>(clock_.nsecsElapsed()) / 1e6;
            gaps_ms_.push_back(now - last_ms_);
            last_ms_ = now;
        });
    }
    void start() {
        gaps_ms_.clear();
        clock_.start();
        last_ms_ = 0;
        timer_.start();
    }
    void stop() { timer_.stop(); }
    double longestMs() const {
        return gaps_ms_.empty() ? 0 : *std::max_element(gaps_ms_.begin(), gaps_ms_.end());
    }
    double medianMs() const { return median(gaps_ms_); }
    std::size_t over(double ms) const {
        return static_cast<std::size_t>(
            std::count_if(gaps_ms_.begin(), gaps_ms_.end(), [ms](double g) { return g > ms; }));
    }

  private:
    QTimer timer_;
    QElapsedTimer clock_;
    double last_ms_ = 0;
    std::vector<double> gaps_ms_;
};

// Runs the event loop for `ms` milliseconds.
void spin(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
}

// Runs the event loop until `done` or `timeout_ms`; false on timeout.
bool spinUntil(const std::function<bool()>& done, int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeout_ms) return false;
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// One step as the engine writes it: loss falling with noise, steady throughput, the step's parts.
StepRecord stepOf(std::int64_t step, int ranks) {
    const double t = static_cast<double>(step);
    StepRecord s;
    s.step = step;
    s.loss = 2.3 * std::exp(-3e-3 * t) + 0.05 * std::sin(0.7 * t);
    s.step_s = 0.05 + 0.002 * std::sin(0.3 * t);
    s.samples_per_s = 128.0 * ranks / s.step_s;
    s.data_s = 0.002;
    s.forward_s = 0.015;
    s.backward_s = 0.025;
    s.allreduce_s = ranks > 1 ? 0.004 : 0;
    s.optimizer_s = s.step_s - s.data_s - s.forward_s - s.backward_s - s.allreduce_s;
    s.comm_hidden_s = ranks > 1 ? 0.006 : 0;
    s.elapsed_s = 0.05 * t;
    return s;
}

// A run's records as the engine streams them: header, per step a step record and every rank's times, an
// evaluation every `eval_every` steps, the summary.
std::vector<MetricRecord> runRecords(int ranks, int steps, int eval_every) {
    std::vector<MetricRecord> records;
    HeaderRecord header{1,    "resnet20", "synthetic", ranks, R"({"type":"header","workload":"resnet20"})",
                        steps};
    records.emplace_back(header);
    for (int i = 1; i <= steps; ++i) {
        const StepRecord s = stepOf(i, ranks);
        records.emplace_back(s);
        RankTimesRecord times{i, std::vector<double>(static_cast<std::size_t>(ranks), s.step_s),
                              std::vector<double>(static_cast<std::size_t>(ranks), s.step_s - s.allreduce_s)};
        records.emplace_back(std::move(times));
        if (i % eval_every == 0)
            records.emplace_back(EvalRecord{i, "accuracy", 0.5 + 0.4 * i / steps, 0.6, s.elapsed_s});
    }
    SummaryRecord summary;
    summary.steps = steps;
    summary.wall_s = stepOf(steps, ranks).elapsed_s;
    summary.samples_per_s = stepOf(steps, ranks).samples_per_s;
    summary.final_loss = stepOf(steps, ranks).loss;
    summary.final_eval = 0.9;
    records.emplace_back(summary);
    return records;
}

// The plan's runs: 5 GPU counts x 200 repeats of ResNet-20 (1000 runs).
std::vector<RunIdentity> planRuns(int count) {
    const int gpu_counts[] = {1, 2, 4, 8, 16};
    std::vector<RunIdentity> runs;
    for (int i = 0; i < count; ++i) {
        const int ranks = gpu_counts[i % 5];
        const int repeat = i / 5 + 1;
        runs.push_back({"resnet20-synthetic-n" + std::to_string(ranks) + "-r" + std::to_string(repeat),
                        "resnet20", "synthetic", ranks, repeat,
                        "mpirun -np " + std::to_string(ranks) + " ..."});
    }
    return runs;
}

// Stores a finished session of `runs` runs of `steps` steps each with the store's own writing code.
std::int64_t storeSession(SessionStore& store, const std::string& name, int runs, int steps) {
    const auto session = store.createSession(name, "", "local");
    for (const RunIdentity& spec : planRuns(runs)) {
        const auto run = store.createRun(session, spec);
        store.startRun(run, "4242");
        store.appendRecords(run, runRecords(spec.ranks, steps, 50));
        store.finishRun(run, {RunStatus::Ok, "", 0, "localhost"});
    }
    store.finishSession(session, SessionStatus::Ok);
    return session;
}

struct Stall {
    double longest_ms = 0, median_ms = 0, seconds = 0;
    std::size_t over_budget = 0;
};

void print(const char* scenario, const Stall& s) {
    std::printf("  %-44s longest %8.1f ms  median %5.2f ms  gaps > %.0f ms: %zu  (%.1f s)\n", scenario,
                s.longest_ms, s.median_ms, kStallBudgetMs, s.over_budget, s.seconds);
}

// Selects `session` in the window (as a click in the session list does) and measures until it is shown and
// the window has been idle for a second.
Stall loadInWindow(MainWindow& window, std::int64_t small, std::int64_t session, int runs) {
    window.selectSession(small);
    spinUntil([&] { return window.shownRuns()->rowCount() == 1; }, 60'000);
    spin(500);
    EventLoopHeartbeat heartbeat;
    QElapsedTimer clock;
    clock.start();
    heartbeat.start();
    window.selectSession(session);
    if (!spinUntil([&] { return window.shownRuns()->rowCount() == runs; }, 300'000))
        std::printf("  (the session was not shown within 300 s)\n");
    spin(1000);
    heartbeat.stop();
    return {heartbeat.longestMs(), heartbeat.medianMs(), static_cast<double>(clock.elapsed()) / 1e3 - 1.0,
            heartbeat.over(kStallBudgetMs)};
}

// With `session` shown, selects `small` (a 1-run session), which frees the shown session's runs, and
// measures until it is shown and the window has been idle for a second.
Stall leaveInWindow(MainWindow& window, std::int64_t small) {
    EventLoopHeartbeat heartbeat;
    QElapsedTimer clock;
    clock.start();
    heartbeat.start();
    window.selectSession(small);
    if (!spinUntil([&] { return window.shownRuns()->rowCount() == 1; }, 60'000))
        std::printf("  (the session was not shown within 60 s)\n");
    spin(1000);
    heartbeat.stop();
    return {heartbeat.longestMs(), heartbeat.medianMs(), static_cast<double>(clock.elapsed()) / 1e3 - 1.0,
            heartbeat.over(kStallBudgetMs)};
}

// A session of `runs` runs streams through the controller's signals as the window receives them: `parallel`
// runs at a time, each sending `batch` steps every `every_ms`; the Live tab follows the live runs.
Stall streamInWindow(MainWindow& window, SessionController& controller, std::int64_t session, int runs,
                     int steps, int parallel, int batch, int every_ms) {
    std::vector<RunSpec> specs;
    for (const RunIdentity& run : planRuns(runs)) {
        RunSpec spec;
        spec.name = run.name;
        spec.ranks = run.ranks;
        spec.repeat = run.repeat;
        spec.group.steps = steps;
        specs.push_back(spec);
    }
    emit controller.sessionStarted(session, specs);
    spinUntil([&] { return window.liveRuns()->rowCount() == runs; }, 60'000);
    window.liveView()->setModel(window.liveRuns()); // as the window does while its controller is busy
    window.showTab(QStringLiteral("liveTab"));
    spin(500);

    EventLoopHeartbeat heartbeat;
    QElapsedTimer clock;
    clock.start();
    heartbeat.start();
    int next_run = 0, sent = 0;
    std::vector<std::pair<int, int>> streaming; // (run index, steps sent)
    QTimer feed;
    feed.setInterval(every_ms);
    QObject::connect(&feed, &QTimer::timeout, [&] {
        while (static_cast<int>(streaming.size()) < parallel && next_run < runs) {
            const RunSpec& spec = specs[static_cast<std::size_t>(next_run)];
            SessionEvents::SubmittedRun submitted;
            submitted.run_id = next_run + 1;
            submitted.spec = spec;
            submitted.job_id = std::to_string(4242 + next_run);
            emit controller.runSubmitted(submitted);
            streaming.emplace_back(next_run++, 0);
        }
        for (auto& [run, done] : streaming) {
            std::vector<MetricRecord> records;
            const int ranks = specs[static_cast<std::size_t>(run)].ranks;
            for (int i = 0; i < batch && done < steps; ++i) {
                const StepRecord s = stepOf(++done, ranks);
                records.emplace_back(s);
                records.emplace_back(
                    RankTimesRecord{s.step, std::vector<double>(static_cast<std::size_t>(ranks), s.step_s),
                                    std::vector<double>(static_cast<std::size_t>(ranks), s.step_s)});
            }
            sent += static_cast<int>(records.size());
            emit controller.recordsArrived(run + 1, records);
        }
        std::erase_if(streaming, [steps](const auto& r) { return r.second >= steps; });
    });
    feed.start();
    spinUntil([&] { return next_run == runs && streaming.empty(); }, 600'000);
    feed.stop();
    spin(1000);
    heartbeat.stop();
    std::printf("  streamed %d records of %d runs (%d at a time, %d steps every %d ms each)\n", sent, runs,
                parallel, batch, every_ms);
    return {heartbeat.longestMs(), heartbeat.medianMs(), static_cast<double>(clock.elapsed()) / 1e3 - 1.0,
            heartbeat.over(kStallBudgetMs)};
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as soon as it is known
    QApplication::setOrganizationName(QStringLiteral("scalebench-window-stall-bench")); // its own settings
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 200;

    QTemporaryDir dir;
    const auto db = std::filesystem::path(dir.path().toStdString()) / "store.db";
    QElapsedTimer clock;
    clock.start();
    std::int64_t big = 0, small = 0;
    {
        SessionStore store(db);
        big = storeSession(store, "sweep-1000", runs, steps);
        small = storeSession(store, "quickstart", 1, steps);
    }
    std::printf(
        "window stalls: a store of a %d-run session (%d steps each, rank times every step, an evaluation"
        " every 50) written in %.1f s; 1280x800 window, 1 ms heartbeat\n",
        runs, steps, static_cast<double>(clock.elapsed()) / 1e3);

    SessionStore store(db);
    SessionController controller(ConsoleOptions{});
    MainWindow window(store, &controller);
    window.resize(1280, 800);
    window.show();
    spinUntil([&] { return window.shownRuns()->rowCount() == 1; }, 60'000);

    std::vector<Stall> stalls;
    window.showTab(QStringLiteral("runsTab"));
    stalls.push_back(loadInWindow(window, small, big, runs));
    print("select the session, Runs tab shown:", stalls.back());
    window.showTab(QStringLiteral("liveTab"));
    stalls.push_back(loadInWindow(window, small, big, runs));
    print("select the session, Live tab shown:", stalls.back());
    stalls.push_back(leaveInWindow(window, small));
    print("select another session after it:", stalls.back());
    const std::int64_t live = store.createSession("streaming", "", "local");
    for (const RunIdentity& run : planRuns(runs))
        store.createRun(live, run);
    stalls.push_back(streamInWindow(window, controller, live, runs, steps, 16, 10, 20));
    print("a session streams, Live tab shown:", stalls.back());

    double longest = 0;
    for (const Stall& s : stalls)
        longest = std::max(longest, s.longest_ms);
    std::printf("longest stall %.1f ms; budget %.0f ms -> %s\n", longest, kStallBudgetMs,
                longest <= kStallBudgetMs ? "within" : "over");
    return longest <= kStallBudgetMs ? 0 : 1;
}
