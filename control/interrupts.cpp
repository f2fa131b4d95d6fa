// Ctrl-C and SIGTERM for a headless session: the first asks for a clean stop, a second ends the console at
// once, saying what it leaves behind.
#include "interrupts.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace scalebench {
namespace {

std::atomic<int> first_signal{0};
std::atomic<int> signal_count{0};
// The message a second signal writes: replaced whole, never freed while the handler may read it.
std::atomic<const std::string*> left_behind{nullptr};

void onSignal(int signal) {
    if (signal_count.fetch_add(1) == 0) {
        first_signal.store(signal);
        return;
    }
    // Only async-signal-safe calls from here: write(2) and _exit(2).
    if (const std::string* message = left_behind.load()) {
        const ssize_t written = write(STDERR_FILENO, message->data(), message->size());
        (void)written;
    }
    _exit(128 + signal);
}

} // namespace

InterruptWatch::InterruptWatch(std::function<void(int)> on_first) : on_first_(std::move(on_first)) {
    first_signal = 0;
    signal_count = 0;
    setLeftBehind("");
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    watcher_ = std::thread([this] {
        while (!stop_) {
            if (const int s = first_signal.load()) {
                on_first_(s);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
}

InterruptWatch::~InterruptWatch() {
    stop_ = true;
    watcher_.join();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

int InterruptWatch::signal() const {
    return first_signal.load();
}

void InterruptWatch::setLeftBehind(const std::string& message) {
    static std::mutex mutex;                               // writers only; the handler reads the pointer
    static std::vector<std::unique_ptr<std::string>> kept; // every message stays alive until exit
    std::lock_guard lock(mutex);
    kept.push_back(
        std::make_unique<std::string>("scalebench: second interrupt, leaving at once. " + message + "\n"));
    left_behind.store(kept.back().get());
}

} // namespace scalebench
