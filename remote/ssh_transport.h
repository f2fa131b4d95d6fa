// SshTransport: runs commands and moves files on a remote machine over SSH and SFTP (libssh).
#pragma once

#include "transport.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace scalebench {

struct SshSettings {
    // A name, an address or a Host alias of the ssh config.
    std::string host;
    // "": the ssh config's User, else the local login name.
    std::string user;
    // 0: the ssh config's Port, else 22.
    int port = 0;
    // Private keys tried after the agent; none: the ssh config's IdentityFile and
    // ~/.ssh/id_{ed25519,ecdsa,rsa}.
    std::vector<std::string> identity_files;
    // OpenSSH format, hashed entries too; /etc/ssh/ssh_known_hosts is consulted as well.
    std::string known_hosts_file = "~/.ssh/known_hosts";
    // An unknown host's key is added to known_hosts_file instead of refused. A changed key is always refused.
    bool trust_on_first_use = false;
    // OpenSSH client configuration (HostName, User, Port, IdentityFile, ProxyJump, ...); "": none. The fields
    // above override it; its StrictHostKeyChecking is ignored (trust_on_first_use decides). A ProxyJump's
    // host is reached with OpenSSH's ssh, its key checked against known_hosts_file by the same rules
    // (jump_host.h).
    std::string config_file = "~/.ssh/config";
    // Seconds without traffic after which the connection is probed (one round trip) before the next
    // operation.
    int keepalive_s = 30;
    // Seconds to wait for the connection, and for any answer of the server.
    int connect_timeout_s = 10;
    // Attempts to reopen a dropped connection, waiting 0.5 s, 1 s, 2 s, ... before each.
    int max_reconnects = 5;
    // Asked for the passphrase of an encrypted key (the prompt names the key file); unset: such keys are
    // skipped.
    std::function<std::string(const std::string& prompt)> passphrase;
    // Told what was done on the user's behalf: a host key added to known_hosts_file on first use (the head's
    // or a jump host's). Unset: nothing is told.
    std::function<void(const std::string& line)> notice;
};

// Connects in the constructor (throws TransportError when the host is unreachable, its host key is unknown or
// has changed, or the login is refused). One operation at a time: calls from several threads are serialised.
//
// A dropped connection (direct, or at a jump host or behind it) is reopened with back-off
// (settings.max_reconnects attempts), and the operation that met the drop is retried once on the new
// connection when that is safe: readFrom, download and upload always (they are idempotent: the same offset
// gives the same bytes, a file is rewritten whole); run only when the connection failed before the command's
// exec request was sent (opening the channel). A command that may have started is never rerun: run throws,
// and the next operation reconnects. No operation raises SIGPIPE when a jump's ssh has gone
// (sigpipe_block.h).
class SshTransport final : public Transport {
  public:
    explicit SshTransport(SshSettings settings);
    ~SshTransport() override;
    SshTransport(const SshTransport&) = delete;
    SshTransport& operator=(const SshTransport&) = delete;

    CommandResult run(const std::string& command) override;
    void upload(const std::filesystem::path& local, const std::string& remote) override;
    void download(const std::string& remote, const std::filesystem::path& local) override;
    std::optional<std::string> readFrom(const std::string& path, std::int64_t offset,
                                        std::size_t max_bytes) override;
    // "user@host:port" with the ssh config applied.
    std::string describe() const override { return where_; }

    // How many times a dropped connection has been reopened.
    int reconnectCount() const;

  private:
    struct Connection;

    std::unique_ptr<Connection> connect() const;
    void authenticate(Connection& connection) const;
    Connection& liveConnection();
    void reconnect();
    template <typename Operation> auto withReconnect(Operation operation);

    SshSettings settings_;
    std::string where_; // user@host:port
    mutable std::mutex mutex_;
    std::unique_ptr<Connection> connection_;
    int reconnects_ = 0;
};

} // namespace scalebench
