// Host key checking against OpenSSH known_hosts files (plain and hashed entries), with trust on first use.
#include "known_hosts.h"

#include "jump_host.h"
#include "sigpipe_block.h"
#include "ssh_handles.h"
#include "transport.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace scalebench {
namespace {
constexpr const char* kSystemKnownHosts = "/etc/ssh/ssh_known_hosts"; // libssh's default global file

// How known_hosts names the session's host: "host" on port 22, else "[host]:port"; lower case, as libssh
// matches.
std::string knownHostsName(ssh_session session) {
    std::string host;
    char* option = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_HOST, &option) == SSH_OK) {
        host = option;
        ssh_string_free_char(option);
    }
    std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
    unsigned int port = 22;
    ssh_options_get_port(session, &port);
    if (port == 22) return host;
    return std::string("[").append(host).append("]:").append(std::to_string(port));
}

// "ssh-ed25519 SHA256:..."
std::string describeKey(ssh_key key) {
    return std::string(ssh_key_type_to_char(ssh_key_type(key))).append(" ").append(sha256Fingerprint(key));
}

} // namespace

std::string sha256Fingerprint(ssh_key key) {
    unsigned char* hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != 0)
        return "SHA256:(unavailable)";
    char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
    ssh_clean_pubkey_hash(&hash);
    std::string fingerprint = text ? text : "SHA256:(unavailable)";
    ssh_string_free_char(text);
    return fingerprint;
}

std::vector<std::string> recordedHostKeysInText(const std::string& text, const std::string& file,
                                                const std::string& host) {
    std::vector<std::string> keys;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#' || line[start] == '@')
            continue; // as libssh skips them
        ssh_knownhosts_entry* raw = nullptr;
        if (ssh_known_hosts_parse_line(host.c_str(), line.c_str(), &raw) != SSH_OK) continue; // another host
        const SshKnownHostsEntryHandle entry(raw);
        keys.push_back(describeKey(entry->publickey)
                           .append(" (")
                           .append(file)
                           .append(":")
                           .append(std::to_string(number))
                           .append(")"));
    }
    return keys;
}

// A file that cannot be read records none.
std::vector<std::string> recordedHostKeys(const std::string& known_hosts_file, const std::string& host) {
    std::ifstream in(known_hosts_file);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return recordedHostKeysInText(text, known_hosts_file, host);
}

void checkHostKey(ssh_session session, const std::string& where, const std::string& known_hosts_file,
                  bool trust_on_first_use, const std::function<void(const std::string&)>& notice) {
    const std::string prefix = std::string("ssh ").append(where).append(": ");
    ssh_key raw = nullptr;
    if (ssh_get_server_publickey(session, &raw) != SSH_OK)
        throw TransportError(prefix + "the server sent no host key: " + ssh_get_error(session));
    const SshKeyHandle key(raw);
    const std::string offered = describeKey(key.get());
    const std::string host = knownHostsName(session);

    switch (ssh_session_is_known_server(session)) {
    case SSH_KNOWN_HOSTS_OK:
        return;
    case SSH_KNOWN_HOSTS_CHANGED: // another key of the same type is recorded
    case SSH_KNOWN_HOSTS_OTHER: { // only keys of other types are recorded
        std::string expected;
        for (const std::string& file : {known_hosts_file, std::string(kSystemKnownHosts)}) {
            for (const std::string& recorded : recordedHostKeys(file, host)) {
                if (!expected.empty()) expected += ", ";
                expected += recorded;
            }
        }
        throw TransportError(
            prefix + "the host key has CHANGED: the server offers " + offered + " but known_hosts records " +
            expected + " for " + host +
            ". This is a possible man-in-the-middle attack; refusing to connect. If the host was "
            "reinstalled, remove the old entry (ssh-keygen -R '" +
            host + "' -f " + known_hosts_file + ") and connect again.");
    }
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND: // the file does not exist yet
        if (trust_on_first_use) {
            if (ssh_session_update_known_hosts(session) != SSH_OK)
                throw TransportError(prefix + "cannot add the host key " + offered + " to " +
                                     known_hosts_file + ": " + ssh_get_error(session));
            if (notice)
                notice(prefix + "added the host key " + offered + " of " + host + " to " + known_hosts_file +
                       " (trust on first use)");
            return;
        }
        throw TransportError(prefix + "the host is unknown: its key " + offered + " is in neither " +
                             known_hosts_file + " nor " + kSystemKnownHosts +
                             ". Check that fingerprint with the host's administrator, then add the key to " +
                             known_hosts_file + " or allow trust on first use.");
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    throw TransportError(prefix + "cannot check the host key against " + known_hosts_file + ": " +
                         ssh_get_error(session));
}

namespace {
std::string homeExpanded(const std::string& path) {
    if (path.size() < 1 || path[0] != '~' || (path.size() > 1 && path[1] != '/')) return path;
    const char* home = std::getenv("HOME");
    return std::string(home ? home : "").append(path.substr(1));
}

// A session to the settings' host, connected (key exchange done) but not logged in. `jump` is set when the
// ssh config sends it through a jump host; it must outlive the session. A jump host's key is checked, never
// added.
SshSessionHandle connectedSession(const SshSettings& settings, std::string& where,
                                  std::unique_ptr<JumpHost>& jump) {
    SshSessionHandle session(ssh_new());
    where = settings.host;
    if (!session) throw TransportError("ssh " + where + ": cannot create a libssh session");
    const auto set = [&](ssh_options_e option, const void* value, const std::string& what) {
        if (ssh_options_set(session.get(), option, value) < 0)
            throw TransportError("ssh " + where + ": invalid " + what + ": " + ssh_get_error(session.get()));
    };
    set(SSH_OPTIONS_HOST, settings.host.c_str(), "host '" + settings.host + "'");
    const bool process_default_config = false;
    set(SSH_OPTIONS_PROCESS_CONFIG, &process_default_config, "option");
    if (!settings.config_file.empty()) {
        const std::string config = homeExpanded(settings.config_file);
        if (ssh_options_parse_config(session.get(), config.c_str()) < 0)
            throw TransportError("ssh " + where + ": cannot use the ssh config " + config + ": " +
                                 ssh_get_error(session.get()));
    }
    if (!settings.user.empty()) set(SSH_OPTIONS_USER, settings.user.c_str(), "user '" + settings.user + "'");
    if (settings.port > 0) set(SSH_OPTIONS_PORT, &settings.port, "port " + std::to_string(settings.port));
    const std::string known_hosts = homeExpanded(settings.known_hosts_file);
    set(SSH_OPTIONS_KNOWNHOSTS, known_hosts.c_str(), "known_hosts file '" + known_hosts + "'");
    const long timeout_s = std::max(0, settings.connect_timeout_s);
    set(SSH_OPTIONS_TIMEOUT, &timeout_s, "timeout");
    jump = JumpHost::configure(session.get(), settings.host, homeExpanded(settings.config_file), known_hosts,
                               false, settings.connect_timeout_s);
    char* value = nullptr;
    std::string host = settings.host;
    if (ssh_options_get(session.get(), SSH_OPTIONS_HOST, &value) == SSH_OK) {
        host = value;
        ssh_string_free_char(value);
    }
    unsigned int port = 22;
    ssh_options_get_port(session.get(), &port);
    where = host + ":" + std::to_string(port);
    if (ssh_connect(session.get()) != SSH_OK)
        throw TransportError("ssh " + where + ": " +
                             (jump ? jump->failure(ssh_get_error(session.get()))
                                   : std::string("cannot connect: ") + ssh_get_error(session.get())));
    return session;
}
} // namespace

HostKeyFinding classifyHostKey(ssh_session session, const std::string& known_hosts_file) {
    ssh_key raw = nullptr;
    if (ssh_get_server_publickey(session, &raw) != SSH_OK)
        throw TransportError(std::string("the server sent no host key: ") + ssh_get_error(session));
    const SshKeyHandle key(raw);
    HostKeyFinding finding;
    finding.host = knownHostsName(session);
    finding.key_type = ssh_key_type_to_char(ssh_key_type(key.get()));
    finding.fingerprint = sha256Fingerprint(key.get());
    finding.known_hosts_file = known_hosts_file;
    switch (ssh_session_is_known_server(session)) {
    case SSH_KNOWN_HOSTS_OK:
        finding.state = HostKeyState::Known;
        return finding;
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER:
        finding.state = HostKeyState::Changed;
        for (const std::string& file : {known_hosts_file, std::string(kSystemKnownHosts)})
            for (const std::string& recorded : recordedHostKeys(file, finding.host))
                finding.recorded.push_back(recorded);
        return finding;
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND:
        finding.state = HostKeyState::Unknown;
        return finding;
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    throw TransportError("cannot check the host key against " + known_hosts_file + ": " +
                         ssh_get_error(session));
}

HostKeyFinding probeHostKey(const SshSettings& settings) {
    const SigpipeBlock sigpipe_blocked; // a jump's ssh may be gone when libssh writes to it
    std::string where;
    std::unique_ptr<JumpHost> jump;
    const SshSessionHandle session = connectedSession(settings, where, jump);
    try {
        return classifyHostKey(session.get(), homeExpanded(settings.known_hosts_file));
    } catch (const TransportError& e) {
        throw TransportError("ssh " + where + ": " + e.what());
    }
}

void trustHostKey(const SshSettings& settings, const std::string& fingerprint) {
    const SigpipeBlock sigpipe_blocked;
    std::string where;
    std::unique_ptr<JumpHost> jump;
    const SshSessionHandle session = connectedSession(settings, where, jump);
    const std::string known_hosts = homeExpanded(settings.known_hosts_file);
    const HostKeyFinding finding = classifyHostKey(session.get(), known_hosts);
    if (finding.fingerprint != fingerprint)
        throw TransportError("ssh " + where + ": the server now offers " + finding.fingerprint +
                             ", not the " + fingerprint + " that was accepted; nothing added to " +
                             known_hosts);
    if (finding.state == HostKeyState::Known) return;
    if (finding.state == HostKeyState::Changed)
        throw TransportError("ssh " + where + ": known_hosts records another key for " + finding.host +
                             "; remove it first (ssh-keygen -R '" + finding.host + "' -f " + known_hosts +
                             ")");
    if (ssh_session_update_known_hosts(session.get()) != SSH_OK)
        throw TransportError("ssh " + where + ": cannot add the host key " + fingerprint + " to " +
                             known_hosts + ": " + ssh_get_error(session.get()));
}

} // namespace scalebench
