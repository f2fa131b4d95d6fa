// A child process started with posix_spawn, in its own process group, stopped by PID when it is dropped.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace scalebench {

struct ChildExit {
    bool exited = false; // false while the process runs
    int status = 0;      // exit status, or 128 + signal number
    int signal = 0;      // the signal that ended it, 0 if it exited
};

class ChildProcess {
  public:
    // Starts argv[0] (searched on PATH) with stdout and stderr sent to the given files, in working_dir (""
    // this process's).
    ChildProcess(const std::vector<std::string>& argv, const std::string& stdout_path,
                 const std::string& stderr_path, const std::vector<std::string>& extra_environment = {},
                 const std::string& working_dir = "");
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    ChildExit poll(); // without waiting
    ChildExit wait(); // until it ends
    void terminate(); // SIGTERM to its process group
    void kill();      // SIGKILL to its process group

  private:
    pid_t pid_ = -1;
    ChildExit exit_;
};

} // namespace scalebench
