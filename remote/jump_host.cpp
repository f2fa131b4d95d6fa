// JumpHost: the hop in front of a head node that the ssh config names (ProxyJump, or a ProxyCommand), run so
// that its host key is checked by scalebench's rules and what its ssh says is kept for the error messages.
#include "jump_host.h"

#include "scratch_folder.h"
#include "shell_words.h"
#include "ssh_handles.h"
#include "transport.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace scalebench {
namespace {
constexpr std::size_t kMostQuotedChars = 2000; // of what the jump's ssh said, the end is kept

// The parts of libssh's ProxyCommand for a ProxyJump, `ssh [-l user] [-p port] [-J more] -W '[%h]:%p' host`
// (config.c, ssh_config_parse_proxy_jump); nothing when the command has another shape (a ProxyCommand).
struct ProxyJumpCommand {
    std::string user, port, more, host;
};

std::optional<ProxyJumpCommand> parseProxyJumpCommand(const std::string& command) {
    std::istringstream words(command);
    std::vector<std::string> w;
    for (std::string word; words >> word;)
        w.push_back(word);
    if (w.size() < 4 || w[0] != "ssh") return std::nullopt;
    ProxyJumpCommand parts;
    std::size_t i = 1;
    for (; i + 1 < w.size() && (w[i] == "-l" || w[i] == "-p" || w[i] == "-J"); i += 2)
        (w[i] == "-l" ? parts.user : w[i] == "-p" ? parts.port : parts.more) = w[i + 1];
    if (i + 3 != w.size() || w[i] != "-W" || (w[i + 1] != "'[%h]:%p'" && w[i + 1] != "[%h]:%p"))
        return std::nullopt;
    parts.host = w[i + 2];
    return parts;
}

// "user@host:port" of a jump host as the config resolves its name (HostName, User, Port), -l and -p over it.
std::string resolvedHop(const ProxyJumpCommand& jump, const std::string& config_file) {
    const SshSessionHandle session(ssh_new());
    std::string user = jump.user, host = jump.host;
    unsigned int port = jump.port.empty() ? 0 : static_cast<unsigned int>(std::atoi(jump.port.c_str()));
    if (session) {
        const bool process_default_config = false;
        ssh_options_set(session.get(), SSH_OPTIONS_HOST, jump.host.c_str());
        ssh_options_set(session.get(), SSH_OPTIONS_PROCESS_CONFIG, &process_default_config);
        if (!config_file.empty()) ssh_options_parse_config(session.get(), config_file.c_str());
        char* value = nullptr;
        if (user.empty() && ssh_options_get(session.get(), SSH_OPTIONS_USER, &value) != SSH_OK) {
            ssh_options_set(session.get(), SSH_OPTIONS_USER, nullptr); // the local login name, as ssh uses
            ssh_options_get(session.get(), SSH_OPTIONS_USER, &value);
        }
        if (user.empty() && value) user = value;
        ssh_string_free_char(value);
        value = nullptr;
        if (ssh_options_get(session.get(), SSH_OPTIONS_HOST, &value) == SSH_OK) host = value;
        ssh_string_free_char(value);
        if (port == 0) ssh_options_get_port(session.get(), &port);
    }
    return (user.empty() ? "" : user + "@") + host + ":" + std::to_string(port == 0 ? 22 : port);
}

bool sshInPath() {
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "");
    for (std::string folder; std::getline(folders, folder, ':');)
        if (access((std::filesystem::path(folder.empty() ? "." : folder) / "ssh").c_str(), X_OK) == 0)
            return true;
    return false;
}
} // namespace

std::unique_ptr<JumpHost> JumpHost::configure(ssh_session session, const std::string& where,
                                              const std::string& config_file,
                                              const std::string& known_hosts_file, bool trust_on_first_use,
                                              int connect_timeout_s) {
    char* value = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_PROXYCOMMAND, &value) != SSH_OK || !value) return nullptr;
    const std::string command = value;
    ssh_string_free_char(value);

    std::unique_ptr<JumpHost> jump(new JumpHost);
    jump->known_hosts_file_ = known_hosts_file;
    jump->trust_on_first_use_ = trust_on_first_use;
    const std::optional<ProxyJumpCommand> parts = parseProxyJumpCommand(command);
    if (!parts) {
        jump->name_ = "ProxyCommand " + command;
        return jump;
    }
    jump->name_ = "jump host " + parts->host + " (" + resolvedHop(*parts, config_file) + ")";
    if (!sshInPath())
        throw TransportError("ssh " + where + ": the ssh config sends the connection through " + jump->name_ +
                             ", which needs OpenSSH's ssh command, but there is no ssh command in PATH");

    // The jump's ssh writes its messages here (-E), read back when a hop fails; removed with the JumpHost.
    jump->log_folder_ = std::make_unique<ScratchFolder>("scalebench-jump");
    const std::string log = (jump->log_folder_->path() / "ssh.log").string();
    jump->log_file_ = log;

    std::vector<std::string> words{"ssh",
                                   "-F",
                                   config_file.empty() ? "/dev/null" : config_file,
                                   "-E",
                                   log,
                                   "-o",
                                   "BatchMode=yes",
                                   "-o",
                                   std::string("StrictHostKeyChecking=") +
                                       (trust_on_first_use ? "accept-new" : "yes"),
                                   "-o",
                                   "UserKnownHostsFile=\"" + known_hosts_file + "\""};
    if (connect_timeout_s > 0) {
        words.push_back("-o");
        words.push_back("ConnectTimeout=" + std::to_string(connect_timeout_s));
    }
    for (const auto& [flag, argument] :
         {std::pair{"-l", parts->user}, {"-p", parts->port}, {"-J", parts->more}})
        if (!argument.empty()) {
            words.push_back(flag);
            words.push_back(argument);
        }
    // libssh replaces %h and %p with the head's host and port before it runs the command.
    const std::string replaced = shellJoin(words) + " -W '[%h]:%p' " + shellQuote(parts->host);
    if (ssh_options_set(session, SSH_OPTIONS_PROXYCOMMAND, replaced.c_str()) < 0)
        throw TransportError("ssh " + where + ": cannot set the command for " + jump->name_ + ": " +
                             ssh_get_error(session));
    if (trust_on_first_use) { // ssh adds keys to an existing folder only, as libssh does for the head's
        std::error_code ignored;
        std::filesystem::create_directories(std::filesystem::path(known_hosts_file).parent_path(), ignored);
    }
    return jump;
}

JumpHost::~JumpHost() = default;

std::vector<std::string> JumpHost::loggedLines() const {
    std::vector<std::string> lines;
    if (log_file_.empty()) return lines;
    std::ifstream in(log_file_);
    for (std::string line; std::getline(in, line);) {
        const auto start = line.find_first_not_of(" \t\r@");
        if (start == std::string::npos) continue; // empty, or a row of '@' around ssh's warnings
        const auto end = line.find_last_not_of(" \t\r@");
        lines.push_back(line.substr(start, end - start + 1));
    }
    return lines;
}

std::string JumpHost::failure(const std::string& libssh_error) const {
    std::string message = "cannot connect through " + name_;
    std::string said;
    if (!log_file_.empty()) {
        for (const std::string& line : loggedLines())
            said.append(said.empty() ? "" : " ").append(line);
        if (said.size() > kMostQuotedChars) said = "..." + said.substr(said.size() - kMostQuotedChars);
        message += said.empty() ? std::string(": its ssh said nothing") : ": its ssh said: \"" + said + "\"";
        if (said.find("Host key verification failed") != std::string::npos)
            message +=
                trust_on_first_use_
                    ? ". The jump host's key is checked like the head's, against " + known_hosts_file_ +
                          " and /etc/ssh/ssh_known_hosts; a changed key is refused even with trust on first "
                          "use: remove the old entry once the host's administrator has confirmed the new key"
                    : ". The jump host's key is checked like the head's, against " + known_hosts_file_ +
                          " and /etc/ssh/ssh_known_hosts: add it there once its fingerprint is confirmed, "
                          "or allow trust on first use";
        else if (said.find("Permission denied") != std::string::npos)
            message += ". The jump host's ssh cannot ask for anything (BatchMode): its key must be in the "
                       "ssh agent, "
                       "or unencrypted and named by the ssh config's IdentityFile for that host";
    }
    // libssh's own error ("Socket error: Connection reset by peer") adds nothing to what the jump said.
    return said.empty() ? message + " (libssh: " + libssh_error + ")" : message;
}

bool JumpHost::refused() const {
    for (const std::string& line : loggedLines())
        if (line.find("Host key verification failed") != std::string::npos ||
            line.find("Permission denied") != std::string::npos)
            return true;
    return false;
}

std::vector<std::string> JumpHost::addedHostKeys() const {
    // "Warning: Permanently added '[127.0.0.1]:2200' (ED25519) to the list of known hosts."
    std::vector<std::string> hosts;
    const std::string added = "Permanently added '";
    for (const std::string& line : loggedLines()) {
        const auto start = line.find(added);
        if (start == std::string::npos) continue;
        const auto end = line.find('\'', start + added.size());
        if (end != std::string::npos)
            hosts.push_back(line.substr(start + added.size(), end - start - added.size()));
    }
    return hosts;
}

} // namespace scalebench
