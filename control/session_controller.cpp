// Runs a plan on a worker thread (the same SessionRunner as --batch) and reports to the window through Qt
// signals, delivered on the window's thread.
#include "session_controller.h"

#include "local_transport.h"
#include "orphan_sessions.h"
#include "session_runner.h"
#include "session_site.h"
#include "session_store.h"
#include "shell_words.h"
#include "ssh_transport.h"

#include <QMetaObject>
#include <QThread>
#include <algorithm>
#include <exception>

namespace scalebench {

// Hands the runner's events (worker thread) to the controller's thread as queued calls.
class SessionController::Relay final : public SessionEvents {
  public:
    explicit Relay(SessionController& owner) : owner_(owner) {}

    template <typename Call> void post(Call call) {
        QMetaObject::invokeMethod(&owner_, std::move(call), Qt::QueuedConnection);
    }
    void sessionStarted(std::int64_t session_id, const std::vector<RunSpec>& runs) override {
        post([o = &owner_, session_id, runs] { emit o->sessionStarted(session_id, runs); });
    }
    void runSubmitted(const SubmittedRun& run) override {
        post([o = &owner_, run] { emit o->runSubmitted(run); });
    }
    void runStateChanged(std::int64_t run_id, const JobStatus& status) override {
        post([o = &owner_, run_id, status] { emit o->runStateChanged(run_id, status); });
    }
    void recordsStored(std::int64_t run_id, const std::vector<MetricRecord>& records) override {
        post([o = &owner_, run_id, records] { emit o->recordsArrived(run_id, records); });
    }
    void runFinished(std::int64_t run_id, RunStatus status, const std::string& error) override {
        post([o = &owner_, run_id, status, e = QString::fromStdString(error)] {
            emit o->runFinished(run_id, status, e);
        });
    }

  private:
    SessionController& owner_;
};

SessionController::SessionController(ConsoleOptions options, QObject* parent)
    : QObject(parent), options_(std::move(options)) {}

SessionController::~SessionController() {
    cancelSession();
    join();
}

void SessionController::setPassphrasePrompt(std::function<QString(const QString&)> prompt) {
    passphrase_prompt_ = std::move(prompt);
}

bool SessionController::launch(const RunPlan& plan, const QString& cluster) {
    return launch(plan, cluster, expandPlan(plan));
}

bool SessionController::launch(const RunPlan& plan, const QString& cluster,
                               const std::vector<RunSpec>& runs) {
    if (busy_) return false;
    if (worker_.joinable()) worker_.join(); // the previous worker has ended; reap its thread
    busy_ = true;
    {
        std::lock_guard lock(runner_mutex_);
        cancel_all_ = false;
    }
    std::string name = cluster.toStdString();
    if (name == "local") name.clear();
    worker_ = std::thread([this, plan, runs, name] { work(plan, runs, name); });
    return true;
}

void SessionController::cancelRun(qint64 run_id) {
    std::lock_guard lock(runner_mutex_);
    if (runner_) runner_->requestCancel(run_id);
}

void SessionController::cancelSession() {
    std::lock_guard lock(runner_mutex_);
    cancel_all_ = true;
    if (runner_) runner_->requestCancelAll();
}

void SessionController::join() {
    if (worker_.joinable()) worker_.join();
    for (auto& reader : readers_)
        if (reader.joinable()) reader.join();
    readers_.clear();
}

void SessionController::fetchText(const QString& cluster, const QStringList& paths) {
    constexpr std::int64_t kTailBytes = 256 * 1024;
    std::string name = cluster.toStdString();
    if (name == "local") name.clear();
    readers_.emplace_back([this, name, paths] {
        const auto answer = [this](const QString& path, const QString& text, const QString& error) {
            QMetaObject::invokeMethod(
                this, [this, path, text, error] { emit textFetched(path, text, error); },
                Qt::QueuedConnection);
        };
        std::unique_ptr<Transport> transport;
        try {
            if (name.empty()) {
                transport = std::make_unique<LocalTransport>();
            } else {
                SessionStore store(options_.db);
                const auto settings = store.cluster(name);
                if (!settings) throw std::runtime_error("no cluster '" + name + "' in the store");
                SshSettings ssh = sshSettings(*settings);
                ssh.passphrase = [this](const std::string& p) { return askPassphrase(p); };
                transport = std::make_unique<SshTransport>(ssh);
            }
        } catch (const std::exception& e) {
            for (const QString& path : paths)
                answer(path, {}, QString::fromLocal8Bit(e.what()));
            return;
        }
        for (const QString& path : paths) { // one connection for every file
            QString text, error;
            try {
                const std::string file = path.toStdString();
                const CommandResult size = transport->run("stat -c %s " + shellQuote(file));
                if (size.exit_status != 0)
                    throw std::runtime_error(size.err.empty() ? "cannot read " + file : size.err);
                const std::int64_t bytes = std::stoll(size.out);
                const std::int64_t from = std::max<std::int64_t>(0, bytes - kTailBytes);
                const auto content = transport->readFrom(file, from, static_cast<std::size_t>(bytes - from));
                if (!content) throw std::runtime_error(file + " does not exist");
                text = QString::fromUtf8(content->data(), static_cast<qsizetype>(content->size()));
                if (from > 0)
                    text.prepend(QStringLiteral("[... the first %1 bytes are not shown]\n").arg(from));
            } catch (const std::exception& e) {
                error = QString::fromLocal8Bit(e.what());
            }
            answer(path, text, error);
        }
    });
}

std::string SessionController::askPassphrase(const std::string& prompt) {
    if (!passphrase_prompt_) return {};
    QString answer;
    // The worker waits for the window's answer; the prompt itself runs on the window's thread.
    QMetaObject::invokeMethod(
        this, [&] { answer = passphrase_prompt_(QString::fromStdString(prompt)); },
        Qt::BlockingQueuedConnection);
    return answer.toStdString();
}

void SessionController::work(RunPlan plan, std::vector<RunSpec> runs, std::string cluster) {
    Relay relay(*this);
    const auto log = [this](const std::string& line) {
        QMetaObject::invokeMethod(
            this, [this, l = QString::fromStdString(line)] { emit progressLine(l); }, Qt::QueuedConnection);
    };
    try {
        // The worker's own connection: SQLite handles are used on one thread; WAL lets the window read
        // meanwhile.
        SessionStore store(options_.db);
        ConsoleOptions options = options_;
        options.cluster = cluster;
        Site site = cluster.empty() ? localSite(options, log, runsEngine(runs))
                                    : clusterSite(options, store, log, runsEngine(runs),
                                                  [this](const std::string& p) { return askPassphrase(p); });
        if (!cluster.empty())
            for (const auto& line : resolveOrphansOnCluster(store, site.settings.where.cluster.name,
                                                            *site.transport, *site.scheduler))
                log(line);
        SessionRunner runner(store, *site.scheduler, *site.transport, site.settings, log);
        runner.setEvents(&relay);
        {
            std::lock_guard lock(runner_mutex_);
            runner_ = &runner;
            if (cancel_all_) runner.requestCancelAll();
        }
        SessionOutcome outcome;
        try {
            outcome = runner.run(plan, runs);
        } catch (...) {
            std::lock_guard lock(runner_mutex_);
            runner_ = nullptr;
            throw;
        }
        {
            std::lock_guard lock(runner_mutex_);
            runner_ = nullptr;
        }
        QMetaObject::invokeMethod(
            this,
            [this, outcome] {
                busy_ = false;
                emit sessionFinished(outcome.session_id, outcome.runs, outcome.failed_runs, outcome.status);
            },
            Qt::QueuedConnection);
    } catch (const std::exception& e) {
        QMetaObject::invokeMethod(
            this,
            [this, error = QString::fromLocal8Bit(e.what())] {
                busy_ = false;
                emit sessionFailed(error);
            },
            Qt::QueuedConnection);
    }
}

} // namespace scalebench
