// JumpHost: the hop in front of a head node that the ssh config names (ProxyJump, or a ProxyCommand), run so
// that its host key is checked by scalebench's rules and what its ssh says is kept for the error messages.
#pragma once

#include "scratch_folder.h"
#include "ssh_transport.h"

#include <libssh/libssh.h>
#include <memory>
#include <string>
#include <vector>

namespace scalebench {

// libssh turns the ssh config's `ProxyJump bastion` into the ProxyCommand `ssh -W '[%h]:%p' bastion` (with
// `-l`, `-p`, `-J` for user, port and further hops) and runs it with its stderr on /dev/null, reading the
// user's default config and known_hosts. JumpHost replaces it with the same `ssh -W` run with:
//   -F the settings' config_file        the bastion's Host lines are found in the config that named it
//   -E a log file of its own            what it said, quoted when a hop fails
//   BatchMode=yes                       no prompt: an agent-held or unencrypted key logs in, or it fails
//   UserKnownHostsFile=known_hosts      the file the head's key is checked against (and
//                                       /etc/ssh/ssh_known_hosts, ssh's default, as for the head)
//   StrictHostKeyChecking=yes           accept-new with trust_on_first_use; a changed key is always refused
//   ConnectTimeout=connect_timeout_s
// Further hops of a chain (`ProxyJump a,b`) are run by that ssh with the config's own settings. Any other
// ProxyCommand is run as it is, named in messages.
class JumpHost {
  public:
    // For a session with its options and the ssh config applied, before ssh_connect: nullptr when it goes
    // direct; else sets the session's ProxyCommand as above. `where` ("user@host:port") prefixes errors;
    // throws TransportError when the jump cannot run (no ssh command in PATH).
    static std::unique_ptr<JumpHost> configure(ssh_session session, const std::string& where,
                                               const std::string& config_file,
                                               const std::string& known_hosts_file, bool trust_on_first_use,
                                               int connect_timeout_s);
    ~JumpHost();
    JumpHost(const JumpHost&) = delete;
    JumpHost& operator=(const JumpHost&) = delete;

    // "jump host bastion (user@host:port)", or "ProxyCommand <command>".
    const std::string& name() const { return name_; }
    // Why ssh_connect failed, naming the hop: what the jump's ssh said (its log) and advice for a refused
    // host key or login; libssh's own error when it said nothing.
    std::string failure(const std::string& libssh_error) const;
    // The jump's ssh refused the hop's host key or its login refused ours: reconnecting cannot help.
    bool refused() const;
    // The hosts whose keys the jump's ssh added to known_hosts (trust on first use), as it names them
    // ("[host]:port").
    std::vector<std::string> addedHostKeys() const;

  private:
    JumpHost() = default;
    std::vector<std::string> loggedLines() const;

    std::string name_;
    std::unique_ptr<ScratchFolder> log_folder_; // holds log_file_ while the jump may run
    std::string log_file_;                      // "": a ProxyCommand of the user's, whose output is not kept
    std::string known_hosts_file_;
    bool trust_on_first_use_ = false;
};

} // namespace scalebench
