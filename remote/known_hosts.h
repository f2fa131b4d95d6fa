// Host key checking against OpenSSH known_hosts files (plain and hashed entries), with trust on first use.
#pragma once

#include <libssh/libssh.h>
#include <string>

namespace scalebench {

// The key's fingerprint as `ssh-keygen -l` prints it: "SHA256:" and unpadded base64.
std::string sha256Fingerprint(ssh_key key);

// Accepts the host key of a connected session when known_hosts_file (or the system's
// /etc/ssh/ssh_known_hosts) holds it. An unknown host is added to known_hosts_file when trust_on_first_use,
// else refused; a changed key is always refused. Throws TransportError naming `where` ("host:port") and the
// fingerprints involved.
void checkHostKey(ssh_session session, const std::string& where, const std::string& known_hosts_file,
                  bool trust_on_first_use);

} // namespace scalebench
