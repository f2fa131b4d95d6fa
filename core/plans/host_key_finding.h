// What known_hosts says about a server's host key: a plain value that remote's check fills and the console
// shows.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

enum class HostKeyState { Known, Unknown, Changed };

// What known_hosts says about a server's host key, refusing nothing (for a console that asks the user).
struct HostKeyFinding {
    HostKeyState state = HostKeyState::Unknown;
    std::string host;        // as known_hosts names it: "host" on port 22, else "[host]:port"
    std::string key_type;    // e.g. "ssh-ed25519"
    std::string fingerprint; // "SHA256:..." of the key the server offers
    // For a changed key: what known_hosts records for the host, each "ssh-ed25519 SHA256:... (file:line)".
    std::vector<std::string> recorded{};
    std::string known_hosts_file; // the user's file (home expanded); /etc/ssh/ssh_known_hosts is read too
};

} // namespace scalebench
