// Ctrl-C and SIGTERM for a headless session: the first asks for a clean stop (the session's jobs cancelled,
// what they wrote collected, runs and session stored as cancelled), a second ends the console at once,
// saying what it leaves behind.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace scalebench {

class InterruptWatch {
  public:
    // Handles SIGINT and SIGTERM from now on; on_first(signal) runs on a watcher thread (not in the signal
    // handler) at the first of them. Only one watch may exist at a time.
    explicit InterruptWatch(std::function<void(int signal)> on_first);
    ~InterruptWatch(); // the default handlers again
    InterruptWatch(const InterruptWatch&) = delete;
    InterruptWatch& operator=(const InterruptWatch&) = delete;

    // The first signal received, 0 while none.
    int signal() const;
    // What a second signal prints before the console exits with 128 + signal (one line, said as is).
    void setLeftBehind(const std::string& message);

  private:
    std::function<void(int)> on_first_;
    std::atomic<bool> stop_{false};
    std::thread watcher_;
};

} // namespace scalebench
