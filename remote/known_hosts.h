// Host key checking against OpenSSH known_hosts files (plain and hashed entries), with trust on first use.
#pragma once

#include "host_key_finding.h"
#include "ssh_transport.h"

#include <functional>
#include <libssh/libssh.h>
#include <string>
#include <vector>

namespace scalebench {

// The key's fingerprint as `ssh-keygen -l` prints it: "SHA256:" and unpadded base64.
std::string sha256Fingerprint(ssh_key key);

// Accepts the host key of a connected session when known_hosts_file (or the system's
// /etc/ssh/ssh_known_hosts) holds it. An unknown host is added to known_hosts_file when trust_on_first_use
// (and `notice` told so), else refused; a changed key is always refused. Throws TransportError naming `where`
// ("host:port") and the fingerprints involved.
void checkHostKey(ssh_session session, const std::string& where, const std::string& known_hosts_file,
                  bool trust_on_first_use, const std::function<void(const std::string&)>& notice = {});
// The keys a known_hosts file records for a host ("host", or "[host]:port"), each as
// "ssh-ed25519 SHA256:... (file:line)".
std::vector<std::string> recordedHostKeys(const std::string& known_hosts_file, const std::string& host);
// The same from the text of a known_hosts file named `file` (in each key's "(file:line)"): a pure function of
// the text, what recordedHostKeys reads. Comments, marker lines (@cert-authority, @revoked) and other hosts'
// entries are skipped.
std::vector<std::string> recordedHostKeysInText(const std::string& text, const std::string& file,
                                                const std::string& host);

// Classifies the host key of a connected session against known_hosts_file and /etc/ssh/ssh_known_hosts (the
// finding: core/plans/host_key_finding.h).
// Throws TransportError when the server sent no key or a file cannot be read.
HostKeyFinding classifyHostKey(ssh_session session, const std::string& known_hosts_file);
// Connects to the settings' host (the ssh config applied, no login) and classifies its host key. Throws
// TransportError naming host and port when the server cannot be reached.
HostKeyFinding probeHostKey(const SshSettings& settings);
// Connects (no login) and adds the server's host key to settings.known_hosts_file, but only when its
// fingerprint is still `fingerprint`, the one the user accepted; throws TransportError otherwise.
void trustHostKey(const SshSettings& settings, const std::string& fingerprint);

} // namespace scalebench
