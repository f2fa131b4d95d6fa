// "Test connection" against the test cluster's real sshd (tests/cluster/cluster_fixture.sh): a known host key
// logs in; an unknown one is reported with its fingerprint and, once trusted, logs in; a changed one is
// refused with both fingerprints. Through ConnectionCheck's worker thread and through the clusters view.
#include "clusters_widget.h"
#include "connection_check.h"
#include "local_transport.h"
#include "session_store.h"
#include "shell_words.h"
#include "stored_session_loader.h"

#include <QDir>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

using namespace scalebench;
using Catch::Matchers::Contains;

namespace {

// cluster.env of the fixture named by SCALEBENCH_TEST_CLUSTER.
std::map<std::string, std::string> clusterEnv() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    std::ifstream in(std::filesystem::path(dir) / "cluster.env");
    REQUIRE(in);
    std::map<std::string, std::string> env;
    for (std::string line; std::getline(in, line);) {
        const auto equals = line.find('=');
        if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
        std::string value = line.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
        env[line.substr(0, equals)] = value;
    }
    unsetenv("SSH_AUTH_SOCK"); // the tests choose their keys
    env["DIR"] = dir;
    return env;
}

std::string runHere(const std::string& command) {
    const CommandResult r = LocalTransport().run(command);
    INFO(command << "\n" << r.err);
    REQUIRE(r.exit_status == 0);
    return r.out;
}

// "SHA256:..." of a public key file.
std::string fingerprintOf(const std::string& public_key) {
    std::istringstream words(runHere("ssh-keygen -lf " + shellQuote(public_key)));
    std::string bits, fingerprint;
    words >> bits >> fingerprint;
    return fingerprint;
}

// The fingerprint of the test cluster's head node's ed25519 host key.
std::string headHostKey(const std::map<std::string, std::string>& env) {
    return fingerprintOf(env.at("DIR") + "/ssh/ssh_host_ed25519_key.pub");
}

std::string fileText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

ClusterSettings testCluster(const std::map<std::string, std::string>& env, const std::string& known_hosts) {
    ClusterSettings c;
    c.name = "test";
    c.host = env.at("SSH_HOST");
    c.port = std::stoi(env.at("SSH_PORT"));
    c.user = env.at("SSH_USER");
    c.identity_files = {env.at("SSH_KEY")};
    c.known_hosts = known_hosts;
    return c;
}

// Rendered at 1100 x 700; saved when SCALEBENCH_SCREENSHOTS names a folder.
void screenshot(QWidget& widget, const char* name) {
    widget.resize(1100, 700);
    widget.show();
    const QImage image = widget.grab().toImage();
    REQUIRE(image.size() == QSize(1100, 700));
    const QString folder = qEnvironmentVariable("SCALEBENCH_SCREENSHOTS");
    if (!folder.isEmpty()) CHECK(image.save(QDir(folder).filePath(QString::fromLatin1(name))));
}

ConnectionReport reportOf(ConnectionCheck& check, const std::function<void()>& start) {
    QSignalSpy done(&check, &ConnectionCheck::finished);
    start();
    REQUIRE(done.wait(30000));
    return done.at(0).at(0).value<ConnectionReport>();
}

} // namespace

TEST_CASE("test connection: a known host key logs in and reports the key's fingerprint",
          "[integration][ssh][clusters]") {
    const auto env = clusterEnv();
    const std::string host_key = headHostKey(env);
    ConnectionCheck check;
    const ConnectionReport r =
        reportOf(check, [&] { check.check(testCluster(env, env.at("SSH_KNOWN_HOSTS"))); });
    INFO(r.error);
    CHECK(r.reachable);
    CHECK(r.host_key.state == HostKeyState::Known);
    CHECK(r.host_key.fingerprint == host_key);
    CHECK(r.logged_in);
    CHECK(r.ok());
    CHECK_THAT(r.launcher, Contains("slurm")); // sbatch --version on the head node
    CHECK_FALSE(r.remote_host.empty());
    CHECK_THAT(r.where, Contains(env.at("SSH_USER")) && Contains(env.at("SSH_PORT")));
}

TEST_CASE("test connection: an unknown host key is reported with its fingerprint, and trusted it logs in",
          "[integration][ssh][clusters]") {
    const auto env = clusterEnv();
    const std::string host_key = headHostKey(env);
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string known_hosts = dir.filePath("known_hosts").toStdString();
    std::ofstream(known_hosts) << "";
    const ClusterSettings cluster = testCluster(env, known_hosts);
    ConnectionCheck check;

    const ConnectionReport unknown = reportOf(check, [&] { check.check(cluster); });
    CHECK(unknown.reachable);
    CHECK(unknown.host_key.state == HostKeyState::Unknown);
    CHECK(unknown.host_key.fingerprint == host_key);
    CHECK(unknown.host_key.key_type == "ssh-ed25519");
    CHECK(unknown.host_key.host == "[" + env.at("SSH_HOST") + "]:" + env.at("SSH_PORT"));
    CHECK_FALSE(unknown.logged_in); // nothing is sent to a host not yet trusted
    CHECK(fileText(known_hosts).empty());

    // A fingerprint other than the server's is never added.
    const ConnectionReport wrong = reportOf(
        check, [&] { check.trustAndCheck(cluster, "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); });
    CHECK_THAT(wrong.error, Contains("now offers " + host_key));
    CHECK(fileText(known_hosts).empty());

    const ConnectionReport trusted = reportOf(check, [&] { check.trustAndCheck(cluster, host_key); });
    INFO(trusted.error);
    CHECK(trusted.host_key.state == HostKeyState::Known);
    CHECK(trusted.logged_in);
    CHECK_THAT(fileText(known_hosts), Contains(unknown.host_key.host + " ssh-ed25519 "));
    const ConnectionReport again = reportOf(check, [&] { check.check(cluster); });
    CHECK(again.host_key.state == HostKeyState::Known);
}

TEST_CASE("test connection: a changed host key is refused with both fingerprints and the line to remove",
          "[integration][ssh][clusters]") {
    const auto env = clusterEnv();
    const std::string host_key = headHostKey(env);
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string impostor = dir.filePath("impostor").toStdString();
    runHere("ssh-keygen -q -t ed25519 -N '' -C test -f " + shellQuote(impostor));
    const std::string recorded = fingerprintOf(impostor + ".pub");
    std::istringstream fields(fileText(impostor + ".pub"));
    std::string type, base64;
    fields >> type >> base64;
    const std::string known_hosts = dir.filePath("known_hosts").toStdString();
    const std::string entry = "[" + env.at("SSH_HOST") + "]:" + env.at("SSH_PORT");
    std::ofstream(known_hosts) << "# another host's line first\nother.example.org " << type << " " << base64
                               << "\n"
                               << entry << " " << type << " " << base64 << "\n";

    ClusterSettings cluster = testCluster(env, known_hosts);
    cluster.trust_on_first_use = true; // changes nothing for a changed key
    ConnectionCheck check;
    const ConnectionReport r = reportOf(check, [&] { check.check(cluster); });
    CHECK(r.reachable);
    REQUIRE(r.host_key.state == HostKeyState::Changed);
    CHECK(r.host_key.fingerprint == host_key);
    REQUIRE(r.host_key.recorded.size() == 1);
    CHECK_THAT(r.host_key.recorded[0], Contains(recorded) && Contains(known_hosts + ":3"));
    CHECK_FALSE(r.logged_in);
    CHECK_FALSE(r.ok());
    // Trusting cannot override it.
    const ConnectionReport forced = reportOf(check, [&] { check.trustAndCheck(cluster, host_key); });
    CHECK_THAT(forced.error, Contains("remove it first"));
    CHECK_THAT(fileText(known_hosts), !Contains(host_key));

    // The clusters view explains the refusal.
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    store.saveCluster(cluster);
    StoredSessionLoader loader(store.file());
    QSignalSpy listed(&loader, &StoredSessionLoader::clustersListed);
    ClustersWidget widget(loader);
    REQUIRE(listed.wait(10000)); // the store's clusters come from the loader's worker thread
    widget.selectCluster("test");
    QSignalSpy done(&widget.connectionCheck(), &ConnectionCheck::finished);
    widget.testConnection();
    REQUIRE(done.wait(30000));
    const std::string text = widget.connectionText().toStdString();
    CHECK_THAT(text, Contains("CHANGED") && Contains("man-in-the-middle") && Contains(host_key) &&
                         Contains(recorded) && Contains("ssh-keygen -R"));
    CHECK(widget.findChild<QPushButton*>("trustKey")->isHidden());
    screenshot(widget, "clusters-changed-key.png");
}

TEST_CASE("the clusters view asks to trust an unknown key, and trusted, connects",
          "[integration][ssh][clusters]") {
    const auto env = clusterEnv();
    const std::string host_key = headHostKey(env);
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    store.saveCluster(testCluster(env, dir.filePath("known_hosts").toStdString()));
    StoredSessionLoader loader(store.file());
    QSignalSpy listed(&loader, &StoredSessionLoader::clustersListed);
    ClustersWidget widget(loader);
    REQUIRE(listed.wait(10000)); // the store's clusters come from the loader's worker thread
    widget.selectCluster("test");
    QSignalSpy done(&widget.connectionCheck(), &ConnectionCheck::finished);
    widget.findChild<QPushButton*>("testConnection")->click();
    REQUIRE(done.wait(30000));
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Trust this key?") && Contains(host_key));
    screenshot(widget, "clusters-unknown-key.png");
    auto* trust = widget.findChild<QPushButton*>("trustKey");
    REQUIRE(trust);
    REQUIRE_FALSE(trust->isHidden());
    trust->click();
    REQUIRE(done.wait(30000));
    INFO(widget.connectionText().toStdString());
    REQUIRE(widget.lastReport().has_value());
    CHECK(widget.lastReport()->logged_in);
    CHECK(widget.lastReport()->host_key.state == HostKeyState::Known);
    CHECK(trust->isHidden());
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Connected."));
    screenshot(widget, "clusters-connected.png");
}
