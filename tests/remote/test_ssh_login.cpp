// SshTransport's login against the test cluster's real sshd (tests/cluster/cluster_fixture.sh, started by
// CTest's fixture): host key checking, the ssh agent, refused and encrypted keys, an ssh config's Host alias,
// and nothing listening. The sshd runs on this machine, so the tests write and check its files directly.
#include "child_process.h"
#include "file_text.h"
#include "local_transport.h"
#include "shell_words.h"
#include "ssh_test_cluster.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace scalebench;
using Catch::Matchers::Contains;
using namespace std::chrono_literals;

namespace {

// "SHA256:..." of a public key file, as ssh-keygen prints it ("256 SHA256:... comment (ED25519)").
std::string fingerprintOf(const std::filesystem::path& public_key) {
    std::istringstream words(runHere(std::string("ssh-keygen -lf ").append(shellQuote(public_key.string()))));
    std::string bits, fingerprint;
    words >> bits >> fingerprint;
    REQUIRE_THAT(fingerprint, Catch::StartsWith("SHA256:"));
    return fingerprint;
}

} // namespace

TEST_CASE("host keys: a key in known_hosts, plain or hashed, is accepted", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    CHECK(SshTransport(settingsFor(cluster)).run("true").exit_status == 0);

    TemporaryFolder folder;
    const auto hashed = folder.path / "known_hosts";
    std::filesystem::copy_file(cluster["SSH_KNOWN_HOSTS"], hashed);
    runHere(std::string("ssh-keygen -q -H -f ").append(shellQuote(hashed.string())));
    REQUIRE_THAT(fileText(hashed), Catch::StartsWith("|1|"));
    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = hashed.string();
    CHECK(SshTransport(settings).run("true").exit_status == 0);
}

TEST_CASE("host keys: an unknown host is refused with its fingerprint, or added when trusted on first use",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    const std::string host_key = fingerprintOf(cluster.dir / "ssh" / "ssh_host_ed25519_key.pub");
    TemporaryFolder folder;
    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = (folder.path / "empty_known_hosts").string();
    spit(settings.known_hosts_file, "");

    const std::string refused = errorOf([&] { SshTransport ssh(settings); });
    CHECK_THAT(refused, Contains("unknown") && Contains("SHA256:") && Contains(host_key) &&
                            Contains(cluster.hostPort()) && Contains(settings.known_hosts_file));

    settings.trust_on_first_use = true;
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    const std::string entry =
        std::string("[").append(cluster["SSH_HOST"]).append("]:").append(cluster["SSH_PORT"]);
    CHECK_THAT(fileText(settings.known_hosts_file), Contains(entry + " ssh-ed25519 "));
    settings.trust_on_first_use = false; // the entry written is a real one
    CHECK(SshTransport(settings).run("true").exit_status == 0);

    // Trust on first use also creates a known_hosts file, and its folder, that do not exist yet.
    settings.trust_on_first_use = true;
    settings.known_hosts_file = (folder.path / "new" / "known_hosts").string();
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    CHECK_FALSE(fileText(settings.known_hosts_file).empty());
}

TEST_CASE("host keys: a changed key is refused, trust on first use or not, with both fingerprints",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    const std::string host_key = fingerprintOf(cluster.dir / "ssh" / "ssh_host_ed25519_key.pub");
    TemporaryFolder folder;
    const auto impostor = newKey(folder.path, "other_host_key");
    const std::string recorded = fingerprintOf(impostor.string() + ".pub");
    const auto known_hosts = folder.path / "known_hosts";
    spit(known_hosts, std::string("[")
                          .append(cluster["SSH_HOST"])
                          .append("]:")
                          .append(cluster["SSH_PORT"])
                          .append(" ")
                          .append(keyFieldsOf(impostor.string() + ".pub"))
                          .append("\n"));
    runHere(std::string("ssh-keygen -q -H -f ").append(shellQuote(known_hosts.string())));

    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = known_hosts.string();
    for (const bool trust : {false, true}) {
        settings.trust_on_first_use = trust;
        const std::string refused = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(refused, Contains("CHANGED") && Contains("man-in-the-middle") && Contains(host_key) &&
                                Contains(recorded) && Contains(cluster.hostPort()));
    }
    CHECK(fileText(known_hosts).find(cluster["SSH_PORT"]) ==
          std::string::npos); // still only the hashed entry
}

TEST_CASE("with no key file named, the ssh agent's key logs in", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const std::string socket = (folder.path / "agent.sock").string();
    // A real ssh-agent of this test's own, in the foreground, stopped by PID when the test ends.
    ChildProcess agent({"ssh-agent", "-D", "-a", socket}, (folder.path / "agent.out").string(),
                       (folder.path / "agent.err").string());
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!std::filesystem::exists(socket) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    REQUIRE(std::filesystem::exists(socket));
    const CommandResult added = LocalTransport().run("SSH_AUTH_SOCK=" + shellQuote(socket) + " ssh-add " +
                                                     shellQuote(cluster["SSH_KEY"]));
    INFO(added.err);
    REQUIRE(added.exit_status == 0);

    SshSettings settings = settingsFor(cluster);
    settings.identity_files.clear(); // nothing but the agent (this machine's ~/.ssh has no keys for sbtest)
    setenv("SSH_AUTH_SOCK", socket.c_str(), 1);
    std::string out;
    try {
        out = SshTransport(settings).run("echo through the agent").out;
    } catch (...) {
        unsetenv("SSH_AUTH_SOCK");
        throw;
    }
    unsetenv("SSH_AUTH_SOCK");
    CHECK(out == "through the agent\n");
}

TEST_CASE("a login with a key the server does not know is refused, naming user, host and the keys tried",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto stranger = newKey(folder.path, "stranger");
    SshSettings settings = settingsFor(cluster);
    settings.identity_files = {stranger.string(), (folder.path / "absent").string()};
    const std::string refused = errorOf([&] { SshTransport ssh(settings); });
    CHECK_THAT(refused,
               Contains(std::string("refused the login as '").append(cluster["SSH_USER"]).append("'")) &&
                   Contains(cluster.hostPort()) && Contains(stranger.string() + " (refused)") &&
                   Contains((folder.path / "absent").string() + " (missing)"));
}

TEST_CASE("an encrypted key is unlocked with the passphrase callback", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto key = newKey(folder.path, "encrypted", "correct horse");
    const ExtraAuthorizedKey authorized(key.string() + ".pub");
    SshSettings settings = settingsFor(cluster);
    settings.identity_files = {key.string()};

    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
               Contains(key.string() + " (encrypted, and no passphrase was given"));
    settings.passphrase = [](const std::string&) { return std::string("wrong"); };
    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }), Contains("wrong passphrase"));

    std::vector<std::string> prompts;
    settings.passphrase = [&](const std::string& prompt) {
        prompts.push_back(prompt);
        return std::string("correct horse");
    };
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    REQUIRE(prompts.size() == 1);
    CHECK_THAT(prompts[0], Contains(key.string()));
}

TEST_CASE("an ssh config's Host alias gives host name, user, port and key, and explicit settings win",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto config = folder.path / "config";
    spit(config, std::string("Host sb-head\n  HostName ")
                     .append(cluster["SSH_HOST"])
                     .append("\n  Port ")
                     .append(cluster["SSH_PORT"])
                     .append("\n  User ")
                     .append(cluster["SSH_USER"])
                     .append("\n  IdentityFile ")
                     .append(cluster["SSH_KEY"])
                     .append("\n"));
    SshSettings settings;
    settings.host = "sb-head";
    settings.known_hosts_file = cluster["SSH_KNOWN_HOSTS"];
    settings.config_file = config.string();
    SshTransport ssh(settings);
    CHECK(ssh.describe() == cluster["SSH_USER"] + "@" + cluster.hostPort());
    CHECK(ssh.run("whoami").out == cluster["SSH_USER"] + "\n");

    settings.port = 1; // over the config's Port: nothing listens there
    CHECK_THAT(errorOf([&] { SshTransport refused(settings); }), Contains(cluster["SSH_HOST"] + ":1"));
}

TEST_CASE("nothing listening: the connection fails at once with the host and port", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshSettings settings = settingsFor(cluster);
    settings.port = 1; // nothing listens on tcpmux
    settings.connect_timeout_s = 10;
    const auto start = std::chrono::steady_clock::now();
    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
               Contains(cluster["SSH_HOST"] + ":1") && Contains("cannot connect"));
    // "At once": a refused connection is not retried or waited out. Loopback refuses in well under a
    // millisecond; the bound is a fifth of the connect timeout, so a busy machine cannot make it flaky while
    // a transport that waited for the timeout (or retried after a pause) fails.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO("failed after " << seconds << " s");
    CHECK(seconds < settings.connect_timeout_s / 5.0);
}
