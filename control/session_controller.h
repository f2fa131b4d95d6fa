// Runs a plan on a worker thread (the same SessionRunner as --batch) and reports to the window through Qt
// signals, delivered on the window's thread.
#pragma once

#include "console_options.h"
#include "run_plan.h"
#include "session_events.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace scalebench {

class SessionRunner; // session_runner.h, which brings remote's headers: only the .cpp includes it

class SessionController : public QObject {
    Q_OBJECT

  public:
    // options: the store (db), run folders (out_dir), the engine, its sources for clusters, the poll
    // interval.
    explicit SessionController(ConsoleOptions options, QObject* parent = nullptr);
    // Where its sessions run on this machine and what they launch (the engine, the sessions' folder).
    const ConsoleOptions& options() const { return options_; }
    // Cancels a running session and waits for its runs to end (their records stay stored).
    ~SessionController() override;

    // Answers an SSH key's passphrase prompt; called on the window's thread while the worker waits.
    void setPassphrasePrompt(std::function<QString(const QString& prompt)> prompt);

    // Starts the plan on `cluster` ("" or "local": this machine). False when a session is still running.
    bool launch(const RunPlan& plan, const QString& cluster);
    // Only these runs of the plan (resubmitting some runs of a session as a new session).
    bool launch(const RunPlan& plan, const QString& cluster, const std::vector<RunSpec>& runs);
    // Reads text files of a run (its logs) where the session ran, over one connection, on a thread of their
    // own; each file is answered by textFetched.
    void fetchText(const QString& cluster, const QStringList& paths);
    bool busy() const { return busy_; }
    void cancelRun(qint64 run_id);
    void cancelSession();

  signals:
    void progressLine(const QString& line);
    void sessionStarted(qint64 session_id, const std::vector<scalebench::RunSpec>& runs);
    void runSubmitted(const scalebench::SessionEvents::SubmittedRun& run);
    void runStateChanged(qint64 run_id, const scalebench::JobStatus& status);
    // Records of one run, already in the store, in stream order.
    void recordsArrived(qint64 run_id, const std::vector<scalebench::MetricRecord>& records);
    // status: ok, failed or cancelled.
    void runFinished(qint64 run_id, scalebench::RunStatus status, const QString& error);
    // status: ok, failed or cancelled; failed_runs leaves out the runs the user cancelled.
    void sessionFinished(qint64 session_id, int runs, int failed_runs, scalebench::SessionStatus status);
    // The session could not start or ended early: no cluster, refused host key, broken store, ...
    void sessionFailed(const QString& error);
    // The file's text (its last 256 KiB), or why it could not be read.
    void textFetched(const QString& path, const QString& text, const QString& error);

  private:
    class Relay;
    void work(RunPlan plan, std::vector<RunSpec> runs, std::string cluster);
    std::string askPassphrase(const std::string& prompt);
    void join();

    ConsoleOptions options_;
    std::function<QString(const QString&)> passphrase_prompt_;
    std::thread worker_;
    std::vector<std::thread> readers_; // fetchText's
    std::atomic<bool> busy_{false};
    std::mutex runner_mutex_;
    SessionRunner* runner_ = nullptr; // while a session runs; guarded by runner_mutex_
    bool cancel_all_ = false;         // asked before the runner existed; guarded by runner_mutex_
};

} // namespace scalebench
