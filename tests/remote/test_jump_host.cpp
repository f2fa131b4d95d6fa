// SshTransport through a jump host: the test cluster's bastion sshd (tests/cluster/cluster_fixture.sh) in
// front of its head, reached by an ssh config's `ProxyJump` as users reach real clusters. A dropped hop is
// reopened like a direct connection, each hop's failure names the hop and quotes what its ssh said, and the
// bastion's key is checked by the same rules as the head's.
#include "cluster_environment.h"
#include "file_text.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <unistd.h>

using namespace scalebench;
using Catch::Matchers::Contains;
using namespace std::chrono_literals;

namespace {
std::map<std::string, std::string> testCluster() {
    auto env = clusterEnvironment();
    REQUIRE(env.contains("BASTION_PORT"));
    unsetenv("SSH_AUTH_SOCK"); // the tests choose their keys: no agent of whoever runs them
    return env;
}

// known_hosts lines as the fixture writes them: "[127.0.0.1]:PORT type base64".
std::string knownHostsLine(const std::map<std::string, std::string>& env, const std::string& port,
                           const std::filesystem::path& public_key) {
    return "[" + env.at("SSH_HOST") + "]:" + port + " " + keyFieldsOf(public_key) + "\n";
}
std::filesystem::path headHostKey(const std::map<std::string, std::string>& env) {
    return std::filesystem::path(env.at("SSH_KEY")).parent_path() / "ssh_host_ed25519_key.pub";
}

// Waits until the jump's `ssh -W` child of this process has ended (it does once its hop dropped).
void waitForJumpToEnd() {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!descendants(getpid()).empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
    CHECK(descendants(getpid()).empty());
}
} // namespace

TEST_CASE("through the ssh config's ProxyJump, commands run on the head and files come back",
          "[integration][ssh][jump]") {
    const auto env = testCluster();
    TemporaryFolder folder;
    SshTransport ssh(jumpSettings(env, folder.path));
    CHECK(ssh.describe() == env.at("SSH_USER") + "@" + env.at("SSH_HOST") + ":" + env.at("SSH_PORT"));
    CHECK(ssh.run("whoami").out == env.at("SSH_USER") + "\n");
    const std::string path = env.at("SSH_WORKDIR") + "/jump-" + std::to_string(getpid()) + ".txt";
    spit(path, "through the bastion\n");
    CHECK(ssh.readFrom(path, 8, 100) == std::string("the bastion\n"));
    std::filesystem::remove(path);
}

TEST_CASE(
    "a connection dropped at the jump host is reopened like a direct one, and no SIGPIPE ends the process",
    "[integration][ssh][jump]") {
    const auto env = testCluster();
    TemporaryFolder folder;
    // ProxyJump, and a ProxyCommand of the user's that runs the same `ssh -W`.
    const bool proxy_command = GENERATE(false, true);
    INFO((proxy_command ? "ProxyCommand" : "ProxyJump"));
    SshTransport ssh(jumpSettings(env, folder.path, {"", "", "", proxy_command}));
    REQUIRE(ssh.run("echo before").out == "before\n");

    // The bastion's session of this connection ends (its sshd child killed, as a bastion restarted or a
    // network cut does), or the head's: either way the jump's `ssh -W` child exits and its socket closes.
    const std::string daemon = GENERATE(std::string("bastion-sshd"), std::string("sshd"));
    INFO("the sessions of the fixture's " << daemon << " dropped");
    dropSessionsOf(daemon);
    waitForJumpToEnd();

    // The next command meets the dead socket while it opens its channel (nothing ran yet): the transport
    // reconnects through the bastion and runs it. Writing to the dead socket must not raise SIGPIPE.
    CHECK(ssh.run("echo after").out == "after\n");
    CHECK(ssh.reconnectCount() == 1);

    // Dropped while a command streams output: data still in flight reaches libssh after the jump's end of the
    // socket closed, and libssh answers it (window adjustments) into the closed socket.
    {
        std::jthread dropper([&] {
            std::this_thread::sleep_for(1s);
            dropSessionsOf(daemon);
        });
        // The loop ends when its output has nowhere to go (head fails on SIGPIPE), not after the test.
        const std::string error =
            errorOf([&] { ssh.run("while head -c 200000 /dev/zero; do sleep 0.001; done"); });
        CHECK_THAT(error, Contains("not rerun"));
    }
    CHECK(ssh.run("echo again").out == "again\n");
    CHECK(ssh.reconnectCount() == 2);

    // Once more, with a read (retried as always) meeting the drop.
    const std::string path = env.at("SSH_WORKDIR") + "/jump-drop-" + std::to_string(getpid()) + ".txt";
    spit(path, "0123456789");
    dropSessionsOf(daemon);
    waitForJumpToEnd();
    CHECK(ssh.readFrom(path, 5, 100) == std::string("56789"));
    CHECK(ssh.reconnectCount() == 3);
    std::filesystem::remove(path);
}

TEST_CASE("a jump whose end of the connection is gone fails the connection with an error, not SIGPIPE",
          "[integration][ssh][jump]") {
    // What a jump's `ssh -W` does when its hop drops while scalebench writes to it, made deterministic: a
    // ProxyCommand that stops reading (shutdown SHUT_RD), then greets as an SSH server and waits. libssh's
    // next write (its key exchange) meets a socket whose other end reads no more: EPIPE, and SIGPIPE unless
    // the transport keeps it from ending the process.
    const auto env = testCluster();
    TemporaryFolder folder;
    const auto jump = folder.path / "half_closed_jump.py";
    spit(jump, "import socket, time\n"
               "s = socket.socket(fileno=0)\n"
               "s.shutdown(socket.SHUT_RD)\n"
               "s.send(b'SSH-2.0-OpenSSH_9.2\\r\\n')\n"
               "time.sleep(10)\n");
    spit(folder.path / "config", "Host head\n  HostName " + env.at("SSH_HOST") + "\n  Port " +
                                     env.at("SSH_PORT") + "\n  ProxyCommand python3 " + jump.string() + "\n");
    SshSettings settings;
    settings.host = "head";
    settings.user = env.at("SSH_USER");
    settings.identity_files = {env.at("SSH_KEY")};
    settings.known_hosts_file = env.at("SSH_KNOWN_HOSTS");
    settings.config_file = (folder.path / "config").string();
    for (int attempt = 0; attempt < 3; ++attempt)
        CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
                   Contains("cannot connect") && Contains("ProxyCommand python3 " + jump.string()));
}

TEST_CASE("each hop's failure names the jump host and quotes what its ssh said", "[integration][ssh][jump]") {
    const auto env = testCluster();
    TemporaryFolder folder;
    const std::string bastion = env.at("SSH_HOST") + ":" + env.at("BASTION_PORT");
    const std::string bastion_hop = "jump host bastion (" + env.at("SSH_USER") + "@" + bastion + ")";

    SECTION("the bastion's key is unknown") {
        SshSettings settings = jumpSettings(env, folder.path);
        spit(settings.known_hosts_file, knownHostsLine(env, env.at("SSH_PORT"), headHostKey(env)));
        const std::string error = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(error, Contains(bastion_hop) && Contains("Host key verification failed") &&
                              Contains("No ED25519 host key is known for [" + env.at("SSH_HOST") +
                                       "]:" + env.at("BASTION_PORT")) &&
                              Contains(settings.known_hosts_file));
        CHECK_THAT(error, !Contains("Connection reset by peer"));
    }
    SECTION("the bastion's key has changed, trust on first use or not") {
        SshSettings settings = jumpSettings(env, folder.path);
        const auto impostor = newKey(folder.path, "impostor");
        spit(settings.known_hosts_file,
             knownHostsLine(env, env.at("SSH_PORT"), headHostKey(env)) +
                 knownHostsLine(env, env.at("BASTION_PORT"), impostor.string() + ".pub"));
        for (const bool trust : {false, true}) {
            settings.trust_on_first_use = trust;
            CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
                       Contains(bastion_hop) && Contains("REMOTE HOST IDENTIFICATION HAS CHANGED") &&
                           Contains("Host key verification failed"));
        }
    }
    SECTION("nothing listens on the bastion's port") {
        SshSettings settings = jumpSettings(env, folder.path, {"1", "", ""});
        const auto start = std::chrono::steady_clock::now();
        const std::string error = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(error,
                   Contains("jump host bastion (" + env.at("SSH_USER") + "@" + env.at("SSH_HOST") + ":1)") &&
                       Contains("port 1: Connection refused"));
        CHECK(std::chrono::steady_clock::now() - start < 5s); // at once, like a direct connection
    }
    SECTION("the bastion refuses the login: its key is encrypted and no agent holds it") {
        const auto locked = newKey(folder.path, "locked", "a passphrase");
        const ExtraAuthorizedKey authorized(locked.string() + ".pub");
        SshSettings settings = jumpSettings(env, folder.path, {"", locked.string(), ""});
        CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
                   Contains(bastion_hop) && Contains("Permission denied (publickey)") && Contains("agent"));
    }
    SECTION("no ssh command in PATH") {
        SshSettings settings = jumpSettings(env, folder.path);
        const std::string path = std::getenv("PATH");
        setenv("PATH", folder.path.c_str(), 1);
        const std::string error = errorOf([&] { SshTransport ssh(settings); });
        setenv("PATH", path.c_str(), 1);
        CHECK_THAT(error, Contains("jump host bastion") && Contains("no ssh command in PATH"));
    }
    SECTION("the head behind the bastion is down") {
        // The bastion forwards only to the head's sshd (PermitOpen): a port it may not open stands in for a
        // head that is down, as the bastion reports both.
        SshSettings settings = jumpSettings(env, folder.path);
        settings.port = 1;
        CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
                   Contains(bastion_hop) && Contains("open failed") && Contains(env.at("SSH_HOST") + ":1"));
    }
}

TEST_CASE("trust on first use records the bastion's key as it records the head's, and says so",
          "[integration][ssh][jump]") {
    const auto env = testCluster();
    TemporaryFolder folder;
    SshSettings settings = jumpSettings(env, folder.path);
    spit(settings.known_hosts_file, "");
    std::vector<std::string> notices;
    settings.notice = [&](const std::string& line) { notices.push_back(line); };

    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }), Contains("jump host bastion"));
    CHECK(fileText(settings.known_hosts_file).empty());

    settings.trust_on_first_use = true;
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    const std::string recorded = fileText(settings.known_hosts_file);
    const std::string bastion_entry = "[" + env.at("SSH_HOST") + "]:" + env.at("BASTION_PORT") + " ";
    const std::string head_entry = "[" + env.at("SSH_HOST") + "]:" + env.at("SSH_PORT") + " ";
    CHECK_THAT(recorded, Contains(bastion_entry + keyFieldsOf(env.at("BASTION_HOST_KEY"))) &&
                             Contains(head_entry + keyFieldsOf(headHostKey(env))));
    std::string told;
    for (const auto& line : notices)
        told += line + "\n";
    INFO(told);
    REQUIRE(notices.size() == 2);
    CHECK_THAT(told, Contains("jump host bastion") &&
                         Contains(bastion_entry.substr(0, bastion_entry.size() - 1)) &&
                         Contains(head_entry.substr(0, head_entry.size() - 1)) && Contains("SHA256:"));

    settings.trust_on_first_use = false; // the entries written are real ones
    notices.clear();
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    CHECK(notices.empty());
}

TEST_CASE("an encrypted key with no passphrase to unlock it is named as such, not as refused by the server",
          "[integration][ssh][jump]") {
    const auto env = testCluster();
    TemporaryFolder folder;
    const auto locked = newKey(folder.path, "locked", "a passphrase");
    const ExtraAuthorizedKey authorized(locked.string() + ".pub");

    SECTION("named in the settings") {
        SshSettings settings = jumpSettings(env, folder.path);
        settings.identity_files = {locked.string()};
        const std::string error = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(error, Contains(locked.string() + " (encrypted, and no passphrase was given") &&
                              !Contains("refused"));
    }
    SECTION("named by the ssh config's IdentityFile") {
        SshSettings settings =
            jumpSettings(env, folder.path, {"", "", "  IdentityFile " + locked.string() + "\n"});
        settings.identity_files.clear();
        const std::string error = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(error, Contains(locked.string() + " (encrypted, and no passphrase was given") &&
                              !Contains("refused the login"));
    }
}
