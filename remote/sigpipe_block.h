// SigpipeBlock: keeps SIGPIPE from ending the process while this thread writes to a socket libssh may find
// closed (a ProxyCommand's or jump host's `ssh -W` that has exited).
#pragma once

#include <csignal>
#include <ctime>
#include <pthread.h>

namespace scalebench {

// libssh writes to a ProxyCommand's socket with write(), not send(MSG_NOSIGNAL): when the command has exited
// (its hop dropped), the write raises SIGPIPE, whose default action ends the process. For its lifetime this
// blocks SIGPIPE in the calling thread only, so such a write fails with EPIPE (an I/O error libssh reports),
// and discards the SIGPIPE it left pending. Nothing process-wide changes: other threads, and programs started
// elsewhere, keep their SIGPIPE. (A ProxyCommand forked meanwhile inherits the blocked mask; ssh ignores
// SIGPIPE anyway.)
class SigpipeBlock {
  public:
    SigpipeBlock() {
        sigemptyset(&sigpipe_);
        sigaddset(&sigpipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &sigpipe_, &previous_);
        sigset_t pending;
        sigpending(&pending);
        was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeBlock() {
        if (!was_pending_) { // raised by a write of ours: discard it before it can be delivered
            const timespec no_wait{0, 0};
            while (sigtimedwait(&sigpipe_, nullptr, &no_wait) == SIGPIPE) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;

  private:
    sigset_t sigpipe_{};
    sigset_t previous_{};
    bool was_pending_ = false;
};

} // namespace scalebench
