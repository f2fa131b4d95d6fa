// A child process started with posix_spawn, in its own process group, stopped by PID when it is dropped.
#include "child_process.h"

#include "transport.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace scalebench {
namespace {
ChildExit decode(int status) {
    ChildExit e;
    e.exited = true;
    if (WIFEXITED(status)) {
        e.status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        e.signal = WTERMSIG(status);
        e.status = 128 + e.signal;
    }
    return e;
}
} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& stdout_path,
                           const std::string& stderr_path, const std::vector<std::string>& extra_environment,
                           const std::string& working_dir) {
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> environment_text(extra_environment);
    for (char** e = environ; *e; ++e)
        environment_text.emplace_back(*e);
    std::vector<char*> environment;
    for (auto& e : environment_text)
        environment.push_back(e.data());
    environment.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, working_dir.c_str());
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // The console may block or ignore signals of its own (it handles Ctrl-C itself, ignores SIGPIPE): the
    // child starts with none blocked and the usual dispositions, so that a cancellation's SIGTERM ends it.
    posix_spawnattr_setflags(&attributes,
                             POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigemptyset(&defaults);
    for (int signal : {SIGPIPE, SIGINT, SIGTERM, SIGHUP})
        sigaddset(&defaults, signal);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    const int rc = posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environment.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) throw TransportError("cannot start " + argv[0] + ": " + std::strerror(rc));
}

ChildProcess::~ChildProcess() {
    if (!exit_.exited && pid_ > 0) {
        kill();
        wait();
    }
}

ChildExit ChildProcess::poll() {
    if (exit_.exited) return exit_;
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) exit_ = decode(status);
    return exit_;
}

ChildExit ChildProcess::wait() {
    int status = 0;
    while (!exit_.exited) {
        const pid_t r = waitpid(pid_, &status, 0);
        if (r == pid_)
            exit_ = decode(status);
        else if (r < 0 && errno != EINTR)
            break;
    }
    return exit_;
}

void ChildProcess::terminate() {
    if (!exit_.exited) ::kill(-pid_, SIGTERM);
}

void ChildProcess::kill() {
    if (!exit_.exited) ::kill(-pid_, SIGKILL);
}

} // namespace scalebench
