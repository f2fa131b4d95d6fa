// Owning handles for libssh's C objects: each frees its object with the matching libssh call.
#pragma once

#include <libssh/libssh.h>
#include <libssh/sftp.h>
#include <memory>
#include <type_traits>

namespace scalebench {

struct SshSessionDeleter {
    void operator()(ssh_session session) const {
        ssh_disconnect(session); // says goodbye when still connected; closes the socket
        ssh_free(session);
    }
};
struct SshChannelDeleter {
    void operator()(ssh_channel channel) const { ssh_channel_free(channel); } // closes it first when open
};
struct SftpSessionDeleter {
    void operator()(sftp_session sftp) const { sftp_free(sftp); }
};
struct SftpFileDeleter {
    void operator()(sftp_file file) const { sftp_close(file); }
};
struct SshKeyDeleter {
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
struct SshKnownHostsEntryDeleter {
    void operator()(ssh_knownhosts_entry* entry) const { ssh_knownhosts_entry_free(entry); }
};

using SshSessionHandle = std::unique_ptr<std::remove_pointer_t<ssh_session>, SshSessionDeleter>;
using SshChannelHandle = std::unique_ptr<std::remove_pointer_t<ssh_channel>, SshChannelDeleter>;
using SftpSessionHandle = std::unique_ptr<std::remove_pointer_t<sftp_session>, SftpSessionDeleter>;
using SftpFileHandle = std::unique_ptr<std::remove_pointer_t<sftp_file>, SftpFileDeleter>;
using SshKeyHandle = std::unique_ptr<std::remove_pointer_t<ssh_key>, SshKeyDeleter>;
using SshKnownHostsEntryHandle = std::unique_ptr<ssh_knownhosts_entry, SshKnownHostsEntryDeleter>;

} // namespace scalebench
