// SshTransport: runs commands and moves files on a remote machine over SSH and SFTP (libssh).
#include "ssh_transport.h"

#include "jump_host.h"
#include "known_hosts.h"
#include "sigpipe_block.h"
#include "ssh_handles.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <libssh/callbacks.h>
#include <libssh/server.h> // ssh_send_keepalive: a global request the server answers, so one round trip
#include <pwd.h>
#include <thread>
#include <unistd.h>

namespace scalebench {
namespace {
using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadRequestBytes = 128 * 1024; // one SFTP read request (OpenSSH serves up to 255 KiB)
constexpr std::size_t kWriteRequestBytes = 64 * 1024; // one SFTP write request
constexpr int kOutputWaitMs = 100;                    // milliseconds to wait for a command's stdout before
                                                      // looking at its stderr again
constexpr auto kFirstReconnectDelay = std::chrono::milliseconds(500); // doubled before each further attempt

// The connection dropped: reconnecting may help. Callers see it as the TransportError it derives from.
class ConnectionLost final : public TransportError {
  public:
    using TransportError::TransportError;
};

bool isDropped(ssh_session session) {
    return !ssh_is_connected(session) || (ssh_get_status(session) & (SSH_CLOSED | SSH_CLOSED_ERROR)) != 0;
}

std::string libsshError(ssh_session session) {
    const char* text = ssh_get_error(session);
    return text && *text ? text : "no detail from libssh";
}

// Throws ConnectionLost when the session has dropped (the operation may be retried on a new one), else
// TransportError. The message names where ("user@host:port"), what failed, and libssh's reason.
[[noreturn]] void fail(ssh_session session, const std::string& where, const std::string& what) {
    std::string message = std::string("ssh ").append(where).append(": ").append(what).append(": ");
    message += libsshError(session);
    if (isDropped(session)) throw ConnectionLost(message);
    throw TransportError(message);
}

std::string sftpErrorText(int code) {
    switch (code) {
    case SSH_FX_OK:
        return "no error";
    case SSH_FX_EOF:
        return "end of file";
    case SSH_FX_NO_SUCH_FILE:
        return "no such file";
    case SSH_FX_PERMISSION_DENIED:
        return "permission denied";
    case SSH_FX_FAILURE:
        return "failure";
    case SSH_FX_BAD_MESSAGE:
        return "bad message";
    case SSH_FX_NO_CONNECTION:
        return "no connection";
    case SSH_FX_CONNECTION_LOST:
        return "connection lost";
    case SSH_FX_OP_UNSUPPORTED:
        return "operation not supported";
    case SSH_FX_INVALID_HANDLE:
        return "invalid handle";
    case SSH_FX_NO_SUCH_PATH:
        return "no such path";
    case SSH_FX_FILE_ALREADY_EXISTS:
        return "file already exists";
    case SSH_FX_WRITE_PROTECT:
        return "write protected";
    case SSH_FX_NO_MEDIA:
        return "no media";
    default:
        return std::string("SFTP status ").append(std::to_string(code));
    }
}

// fail() for an SFTP request: adds the SFTP status.
[[noreturn]] void failSftp(ssh_session session, sftp_session sftp, const std::string& where,
                           const std::string& what) {
    fail(session, where,
         std::string(what).append(" (").append(sftpErrorText(sftp_get_error(sftp))).append(")"));
}

std::string expandHome(const std::string& path) {
    if (path.empty() || path[0] != '~' || (path.size() > 1 && path[1] != '/'))
        return path; // ~user: left as is
    const char* home = std::getenv("HOME");
    std::string base = home ? home : "";
    if (base.empty())
        if (const passwd* account = getpwuid(geteuid())) base = account->pw_dir;
    return base + path.substr(1);
}

// The signal's number from its name in an SSH exit-signal message ("TERM", "KILL"); 0 when unknown.
int signalNumber(const std::string& name) {
    for (int number = 1; number < NSIG; ++number) {
        const char* abbreviation = sigabbrev_np(number);
        if (abbreviation && name == abbreviation) return number;
    }
    return 0;
}

// What the passphrase callback needs: the settings' callback and which key it is for.
struct PassphraseRequest {
    const SshSettings* settings = nullptr;
    ssh_session session = nullptr;     // for the key ssh_userauth_publickey_auto is trying
    std::string key_file;              // "": ask the session
    std::vector<std::string> locked{}; // encrypted keys that were skipped: no passphrase callback
};

// libssh's ssh_auth_callback: fills buffer with the passphrase from settings.passphrase; -1 when there is
// none.
int askPassphrase(const char* prompt, char* buffer, size_t length, int /*echo*/, int /*verify*/,
                  void* userdata) {
    auto* request = static_cast<PassphraseRequest*>(userdata);
    if (!request || !request->settings) return -1;
    std::string key_file = request->key_file;
    char* current = nullptr;
    if (key_file.empty() && request->session &&
        ssh_userauth_publickey_auto_get_current_identity(request->session, &current) == SSH_OK) {
        key_file = current;
        ssh_string_free_char(current);
    }
    if (!request->settings->passphrase) { // the key stays locked: say so, rather than "refused"
        if (!key_file.empty() &&
            std::find(request->locked.begin(), request->locked.end(), key_file) == request->locked.end())
            request->locked.push_back(key_file);
        return -1;
    }
    const std::string question = key_file.empty() ? std::string(prompt ? prompt : "Passphrase:")
                                                  : std::string("Passphrase for ") + key_file + ":";
    std::string answer;
    try {
        answer = request->settings->passphrase(question);
    } catch (...) { // no exception may cross libssh's C frames
        return -1;
    }
    const bool fits = answer.size() < length;
    if (fits) std::memcpy(buffer, answer.c_str(), answer.size() + 1);
    std::fill(answer.begin(), answer.end(), '\0');
    return fits ? 0 : -1;
}

// Reads from the file's current position until max_bytes or the end of the file.
std::string readUpTo(ssh_session session, sftp_session sftp, sftp_file file, std::size_t max_bytes,
                     const std::string& where, const std::string& path) {
    std::string bytes;
    while (bytes.size() < max_bytes) {
        const std::size_t had = bytes.size();
        const std::size_t want = std::min(kReadRequestBytes, max_bytes - had);
        bytes.resize(had + want);
        const ssize_t got = sftp_read(file, bytes.data() + had, want);
        if (got < 0) failSftp(session, sftp, where, std::string("cannot read ") + path);
        bytes.resize(had + static_cast<std::size_t>(got));
        if (got == 0) break; // the end of the file
    }
    return bytes;
}

CommandResult runCommand(ssh_session session, const std::string& where, const std::string& command) {
    // Declared before the channel, which may still call back while it closes.
    std::string exit_signal;
    ssh_channel_callbacks_struct callbacks{};
    callbacks.userdata = &exit_signal;
    callbacks.channel_exit_signal_function = [](ssh_session, ssh_channel, const char* signal, int,
                                                const char*, const char*, void* userdata) {
        *static_cast<std::string*>(userdata) = signal ? signal : "";
    };
    ssh_callbacks_init(&callbacks);

    // Up to here nothing reached the server: a drop throws ConnectionLost, and the command may be retried.
    const SshChannelHandle channel(ssh_channel_new(session));
    if (!channel || ssh_channel_open_session(channel.get()) != SSH_OK)
        fail(session, where, "cannot open a channel to run a command");
    if (ssh_set_channel_callbacks(channel.get(), &callbacks) != SSH_OK)
        fail(session, where, "cannot watch the channel for signals");

    // From here on the command may have started: failures are final, never ConnectionLost.
    const auto failed = [&](const std::string& what) {
        throw TransportError(std::string("ssh ")
                                 .append(where)
                                 .append(": ")
                                 .append(what)
                                 .append(" '")
                                 .append(command)
                                 .append("' (it may have run; not rerun): ")
                                 .append(libsshError(session)));
    };
    if (ssh_channel_request_exec(channel.get(), command.c_str()) != SSH_OK) failed("cannot start");

    CommandResult result;
    std::string buffer(64 * 1024, '\0');
    const auto size = static_cast<uint32_t>(buffer.size());
    for (;;) {
        // Waiting on stdout also takes in stderr's data, which is then drained without waiting.
        const int out = ssh_channel_read_timeout(channel.get(), buffer.data(), size, 0, kOutputWaitMs);
        if (out == SSH_ERROR) failed("lost the output of");
        if (out > 0) result.out.append(buffer.data(), static_cast<std::size_t>(out));
        int err = 0;
        while ((err = ssh_channel_read_nonblocking(channel.get(), buffer.data(), size, 1)) > 0)
            result.err.append(buffer.data(), static_cast<std::size_t>(err));
        if (err == SSH_ERROR) failed("lost the error output of");
        if (ssh_channel_is_eof(channel.get())) break;
    }
    const int status = ssh_channel_get_exit_status(channel.get()); // after exit-signal when a signal ended it
    if (!exit_signal.empty()) {
        result.exit_status = 128 + signalNumber(exit_signal);
    } else if (status >= 0) {
        result.exit_status = status;
    } else {
        failed("got no exit status from");
    }
    return result;
}
} // namespace

struct SshTransport::Connection {
    std::unique_ptr<JumpHost> jump; // the hop the ssh config names, if any; outlives the session
    SshSessionHandle session;
    SftpSessionHandle sftp; // opened on first use; freed before the session
    std::string where;      // user@host:port
    PassphraseRequest passphrase_request;
    ssh_callbacks_struct callbacks{}; // must live as long as the session
    Clock::time_point last_io = Clock::now();

    sftp_session sftpSession() {
        if (!sftp) {
            SftpSessionHandle opened(sftp_new(session.get()));
            if (!opened) fail(session.get(), where, "cannot open an SFTP channel");
            if (sftp_init(opened.get()) != SSH_OK)
                failSftp(session.get(), opened.get(), where, "cannot start SFTP");
            sftp = std::move(opened);
        }
        return sftp.get();
    }
};

SshTransport::SshTransport(SshSettings settings) : settings_(std::move(settings)) {
    const SigpipeBlock sigpipe_blocked;
    connection_ = connect();
    where_ = connection_->where;
}

SshTransport::~SshTransport() {
    const SigpipeBlock sigpipe_blocked; // saying goodbye writes to the socket
    connection_.reset();
}

namespace {
// ssh_options_set; TransportError naming the option (`what`) and libssh's reason where the session refuses
// it.
void setOption(ssh_session session, const std::string& where, ssh_options_e option, const void* value,
               const std::string& what) {
    if (ssh_options_set(session, option, value) < 0)
        throw TransportError(std::string("ssh ") + where + ": invalid " + what + ": " + libsshError(session));
}

// The host first (the config's Host lines match it), then the config, then the explicit settings over it.
void applySettings(ssh_session session, const SshSettings& settings, const std::string& known_hosts) {
    const std::string& where = settings.host;
    const auto set = [&](ssh_options_e option, const void* value, const std::string& what) {
        setOption(session, where, option, value, what);
    };
    set(SSH_OPTIONS_HOST, settings.host.c_str(), std::string("host '") + settings.host + "'");
    const bool process_default_config = false; // ssh_connect would otherwise read ~/.ssh/config on its own
    set(SSH_OPTIONS_PROCESS_CONFIG, &process_default_config, "option");
    if (!settings.config_file.empty()) {
        const std::string config = expandHome(settings.config_file);
        if (ssh_options_parse_config(session, config.c_str()) < 0)
            throw TransportError(std::string("ssh ") + where + ": cannot use the ssh config " + config +
                                 ": " + libsshError(session));
    }
    if (!settings.user.empty())
        set(SSH_OPTIONS_USER, settings.user.c_str(), std::string("user '") + settings.user + "'");
    if (settings.port > 0)
        set(SSH_OPTIONS_PORT, &settings.port, std::string("port ") + std::to_string(settings.port));
    set(SSH_OPTIONS_KNOWNHOSTS, known_hosts.c_str(), std::string("known_hosts file '") + known_hosts + "'");
    const int strict =
        1; // a config's "StrictHostKeyChecking no" would make unknown hosts pass; trust_on_first_use decides
    set(SSH_OPTIONS_STRICTHOSTKEYCHECK, &strict, "option");
    const long timeout_s = std::max(0, settings.connect_timeout_s);
    set(SSH_OPTIONS_TIMEOUT, &timeout_s, "timeout");
    const int no_delay =
        1; // Nagle's algorithm against delayed ACKs costs ~40 ms per request/reply round trip
    set(SSH_OPTIONS_NODELAY, &no_delay, "option");
}

// Where a session goes once the ssh config is applied.
struct Destination {
    std::string user; // the local login name where neither the settings nor the config give one
    std::string host;
    unsigned int port = 22;
};

Destination destinationOf(ssh_session session, const SshSettings& settings) {
    Destination to;
    char* value = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_USER, &value) != SSH_OK) {
        setOption(session, settings.host, SSH_OPTIONS_USER, nullptr, "user"); // the local login name
        ssh_options_get(session, SSH_OPTIONS_USER, &value);
    }
    to.user = value ? value : "?";
    ssh_string_free_char(value);
    value = nullptr;
    ssh_options_get(session, SSH_OPTIONS_HOST, &value);
    to.host = value ? value : settings.host;
    ssh_string_free_char(value);
    ssh_options_get_port(session, &to.port);
    return to;
}

// ssh_connect. Its failure is ConnectionLost (reconnecting may help), but TransportError where the jump host
// refused a key or login.
void openSession(ssh_session session, const std::string& where, const JumpHost* jump) {
    if (ssh_connect(session) == SSH_OK) return;
    if (!jump)
        throw ConnectionLost(std::string("ssh ") + where + ": cannot connect: " + libsshError(session));
    const std::string message = std::string("ssh ") + where + ": " + jump->failure(libsshError(session));
    if (jump->refused()) throw TransportError(message); // a refused key or login: final
    throw ConnectionLost(message);
}

// Tells settings.notice each host key the jump's ssh added to known_hosts on first use.
void noticeAddedHostKeys(const JumpHost& jump, const SshSettings& settings, const std::string& where,
                         const std::string& known_hosts) {
    for (const std::string& added : jump.addedHostKeys()) {
        std::string keys;
        for (const std::string& key : recordedHostKeys(known_hosts, added))
            keys.append(keys.empty() ? "" : ", ").append(key.substr(0, key.find(" (")));
        settings.notice("ssh " + where + ": " + jump.name() + ": added the host key " + keys + " of " +
                        added + " to " + known_hosts + " (trust on first use)");
    }
}
} // namespace

std::unique_ptr<SshTransport::Connection> SshTransport::connect() const {
    auto connection = std::make_unique<Connection>();
    connection->session.reset(ssh_new());
    ssh_session session = connection->session.get();
    std::string& where = connection->where;
    where = settings_.host;
    if (!session) throw TransportError(std::string("ssh ") + where + ": cannot create a libssh session");
    const std::string known_hosts = expandHome(settings_.known_hosts_file);
    applySettings(session, settings_, known_hosts);

    // Where we go, for every message from now on.
    const Destination to = destinationOf(session, settings_);
    where = to.user + "@" + to.host + ":" + std::to_string(to.port);

    connection->passphrase_request = {&settings_, session, ""};
    connection->callbacks.userdata = &connection->passphrase_request;
    connection->callbacks.auth_function = askPassphrase;
    ssh_callbacks_init(&connection->callbacks);
    if (ssh_set_callbacks(session, &connection->callbacks) != SSH_OK)
        throw TransportError(std::string("ssh ") + where + ": cannot set callbacks: " + libsshError(session));

    const std::string config = expandHome(settings_.config_file);
    connection->jump = JumpHost::configure(session, where, config, known_hosts, settings_.trust_on_first_use,
                                           settings_.connect_timeout_s);
    openSession(session, where, connection->jump.get());
    if (connection->jump && settings_.notice)
        noticeAddedHostKeys(*connection->jump, settings_, where, known_hosts);
    checkHostKey(session, to.host + ":" + std::to_string(to.port), known_hosts, settings_.trust_on_first_use,
                 settings_.notice);
    authenticate(*connection);
    connection->last_io = Clock::now();
    return connection;
}

void SshTransport::authenticate(Connection& connection) const {
    ssh_session session = connection.session.get();
    std::vector<std::string> tried;
    const auto refusedOrFail = [&](int rc, const std::string& what) {
        if (rc == SSH_AUTH_ERROR)
            fail(session, connection.where, std::string("login with ") + what + " failed");
        tried.push_back(what +
                        (rc == SSH_AUTH_PARTIAL ? " (accepted, but the server wants more)" : " (refused)"));
    };

    if (const char* agent = std::getenv("SSH_AUTH_SOCK"); agent && *agent) {
        const int rc = ssh_userauth_agent(session, nullptr);
        if (rc == SSH_AUTH_SUCCESS) return;
        if (rc == SSH_AUTH_ERROR && isDropped(session)) fail(session, connection.where, "login failed");
        if (rc == SSH_AUTH_ERROR) // an agent that does not answer: go on with the key files
            tried.push_back(std::string("the ssh agent at ") + std::string(agent) + " (" +
                            libsshError(session) + ")");
        else
            refusedOrFail(rc, "the ssh agent's keys");
    }

    const auto lockedEntry = [&](const std::string& file) {
        return file +
               " (encrypted, and no passphrase was given: add it to the ssh agent with ssh-add, or give "
               "its passphrase when asked)";
    };
    if (settings_.identity_files.empty()) {
        connection.passphrase_request.key_file.clear();
        const int rc = ssh_userauth_publickey_auto(session, nullptr, nullptr);
        if (rc == SSH_AUTH_SUCCESS) return;
        if (rc == SSH_AUTH_ERROR || connection.passphrase_request.locked.empty())
            refusedOrFail(rc, "the ssh config's IdentityFile and ~/.ssh/id_* keys");
        for (const std::string& file : connection.passphrase_request.locked)
            tried.push_back(lockedEntry(file));
    }
    for (const std::string& listed : settings_.identity_files) {
        const std::string file = expandHome(listed);
        if (!std::filesystem::exists(file)) {
            tried.push_back(file + " (missing)");
            continue;
        }
        connection.passphrase_request.key_file = file;
        ssh_key raw = nullptr;
        const auto& locked = connection.passphrase_request.locked;
        if (ssh_pki_import_privkey_file(file.c_str(), nullptr, askPassphrase, &connection.passphrase_request,
                                        &raw) != SSH_OK) {
            if (std::find(locked.begin(), locked.end(), file) != locked.end())
                tried.push_back(lockedEntry(file));
            else
                tried.push_back(
                    file + (settings_.passphrase ? " (unreadable, or a wrong passphrase)" : " (unreadable)"));
            continue;
        }
        const SshKeyHandle key(raw);
        const int rc = ssh_userauth_publickey(session, nullptr, key.get());
        if (rc == SSH_AUTH_SUCCESS) return;
        refusedOrFail(rc, file);
    }

    std::string keys;
    bool refused = false; // by the server: else no key could even be offered
    for (const std::string& entry : tried) {
        keys.append(keys.empty() ? "" : ", ").append(entry);
        refused = refused || entry.ends_with("(refused)") || entry.ends_with("wants more)");
    }
    const std::string user = connection.where.substr(0, connection.where.find('@'));
    throw TransportError(std::string("ssh ") + connection.where +
                         (refused ? ": the server refused the login as '" : ": no key could log in as '") +
                         user + "'; tried: " + (keys.empty() ? std::string("no key") : keys));
}

SshTransport::Connection& SshTransport::liveConnection() {
    if (connection_ && !isDropped(connection_->session.get())) {
        if (Clock::now() - connection_->last_io < std::chrono::seconds(settings_.keepalive_s))
            return *connection_;
        ssh_send_keepalive(connection_->session.get()); // idle for a while: does the server still answer?
        if (!isDropped(connection_->session.get())) {
            connection_->last_io = Clock::now();
            return *connection_;
        }
    }
    reconnect();
    return *connection_;
}

void SshTransport::reconnect() {
    connection_.reset();
    std::string last_error = "none tried (max_reconnects is 0)";
    auto delay = kFirstReconnectDelay;
    for (int attempt = 1; attempt <= settings_.max_reconnects; ++attempt, delay *= 2) {
        std::this_thread::sleep_for(delay);
        try {
            connection_ = connect();
            ++reconnects_;
            return;
        } catch (const ConnectionLost& unreachable) { // a refused host key or login is final: not caught here
            last_error = unreachable.what();
        }
    }
    throw TransportError(std::string("ssh ") + where_ + ": the connection dropped and " +
                         std::to_string(settings_.max_reconnects) +
                         " attempts to reconnect failed; the last: " + last_error);
}

// Runs operation(connection) on a live connection; when the connection drops under it, reconnects and runs it
// once more. Only operations that are safe to repeat may throw ConnectionLost (see run()).
template <typename Operation> auto SshTransport::withReconnect(Operation operation) {
    Connection& connection = liveConnection();
    try {
        return operation(connection);
    } catch (const ConnectionLost&) {
        reconnect();
        return operation(*connection_);
    }
}

int SshTransport::reconnectCount() const {
    const std::lock_guard lock(mutex_);
    return reconnects_;
}

CommandResult SshTransport::run(const std::string& command) {
    const std::lock_guard lock(mutex_);
    const SigpipeBlock sigpipe_blocked; // a dropped jump: libssh's write fails, the process goes on
    return withReconnect([&](Connection& connection) {
        CommandResult result = runCommand(connection.session.get(), where_, command);
        connection.last_io = Clock::now();
        return result;
    });
}

void SshTransport::upload(const std::filesystem::path& local, const std::string& remote) {
    const std::lock_guard lock(mutex_);
    const SigpipeBlock sigpipe_blocked;
    std::error_code error;
    const auto status = std::filesystem::status(local, error);
    if (error || !std::filesystem::is_regular_file(status))
        throw TransportError(std::string("cannot upload ") + local.string() + ": not a readable file" +
                             (error ? std::string(": ") + error.message() : std::string()));
    const auto mode = static_cast<mode_t>(status.permissions() & std::filesystem::perms::all);
    withReconnect([&](Connection& connection) { // a retry starts over: the remote file is rewritten whole
        std::ifstream in(local, std::ios::binary);
        if (!in) throw TransportError(std::string("cannot read ") + local.string());
        ssh_session session = connection.session.get();
        sftp_session sftp = connection.sftpSession();
        SftpFileHandle file(sftp_open(sftp, remote.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode));
        if (!file) failSftp(session, sftp, where_, std::string("cannot create ") + remote);
        std::string buffer(kWriteRequestBytes, '\0');
        while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
            const auto size = static_cast<std::size_t>(in.gcount());
            if (sftp_write(file.get(), buffer.data(), size) != static_cast<ssize_t>(size))
                failSftp(session, sftp, where_, std::string("cannot write ") + remote);
        }
        if (in.bad()) throw TransportError(std::string("cannot read ") + local.string());
        if (sftp_close(file.release()) != SSH_NO_ERROR)
            failSftp(session, sftp, where_, std::string("cannot finish ") + remote);
        connection.last_io = Clock::now();
    });
}

void SshTransport::download(const std::string& remote, const std::filesystem::path& local) {
    const std::lock_guard lock(mutex_);
    const SigpipeBlock sigpipe_blocked;
    withReconnect([&](Connection& connection) { // a retry starts over: the local file is rewritten whole
        ssh_session session = connection.session.get();
        sftp_session sftp = connection.sftpSession();
        const SftpFileHandle file(sftp_open(sftp, remote.c_str(), O_RDONLY, 0));
        if (!file) failSftp(session, sftp, where_, std::string("cannot open ") + remote);
        std::ofstream out(local, std::ios::binary | std::ios::trunc);
        if (!out) throw TransportError(std::string("cannot write ") + local.string());
        for (;;) {
            const std::string bytes =
                readUpTo(session, sftp, file.get(), 8 * kReadRequestBytes, where_, remote);
            if (bytes.empty()) break;
            if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())))
                throw TransportError(std::string("cannot write ") + local.string());
        }
        out.close();
        if (!out) throw TransportError(std::string("cannot write ") + local.string());
        connection.last_io = Clock::now();
    });
}

std::optional<std::string> SshTransport::readFrom(const std::string& path, std::int64_t offset,
                                                  std::size_t max_bytes) {
    const std::lock_guard lock(mutex_);
    const SigpipeBlock sigpipe_blocked;
    if (offset < 0) throw TransportError(std::string("cannot read ") + path + " from a negative offset");
    // A retry reads the same bytes again from the same offset: nothing is lost or doubled.
    return withReconnect([&](Connection& connection) -> std::optional<std::string> {
        ssh_session session = connection.session.get();
        sftp_session sftp = connection.sftpSession();
        const SftpFileHandle file(sftp_open(sftp, path.c_str(), O_RDONLY, 0));
        if (!file) {
            if (!isDropped(session) && sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE) {
                connection.last_io = Clock::now();
                return std::nullopt;
            }
            failSftp(session, sftp, where_, std::string("cannot open ") + path);
        }
        if (sftp_seek64(file.get(), static_cast<std::uint64_t>(offset)) < 0)
            failSftp(session, sftp, where_, std::string("cannot seek in ") + path);
        std::string bytes = readUpTo(session, sftp, file.get(), max_bytes, where_, path);
        connection.last_io = Clock::now();
        return bytes;
    });
}

} // namespace scalebench
