// SshTransport's commands and files against the test cluster's real sshd (tests/cluster/cluster_fixture.sh,
// started by CTest's fixture): exit status and output, quoted words, SFTP round trips, reads from any offset,
// and loopback throughput. The sshd runs on this machine, so the tests write and check its files directly.
#include "file_text.h"
#include "shell_words.h"
#include "ssh_test_cluster.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace scalebench;
using Catch::Matchers::Contains;
using namespace std::chrono_literals;

TEST_CASE(
    "a command over ssh gives its exit status, output and error output, and quoted words arrive literally",
    "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    CHECK(ssh.describe() == cluster["SSH_USER"] + "@" + cluster.hostPort());

    const CommandResult r = ssh.run("echo out; echo err >&2; exit 3");
    CHECK(r.exit_status == 3);
    CHECK(r.out == "out\n");
    CHECK(r.err == "err\n");
    CHECK(ssh.run("whoami").out == cluster["SSH_USER"] + "\n");
    CHECK(ssh.run("kill -TERM $$").exit_status == 128 + 15);
    CHECK(ssh.run("kill -KILL $$").exit_status == 128 + 9);

    const std::string word = "it's a \"test\" $HOME `id` $(id) ; | & < > * ? [x] {a,b} ~ # ! \\ \t end";
    const CommandResult printed = ssh.run(std::string("printf '%s' ").append(shellQuote(word)));
    CHECK(printed.exit_status == 0);
    CHECK(printed.out == word);

    // Both streams at once, larger than the channel's window: neither blocks the other.
    const CommandResult big =
        ssh.run("head -c 3000000 /dev/zero | tr '\\0' o; head -c 2000000 /dev/zero | tr '\\0' e >&2");
    CHECK(big.out == std::string(3000000, 'o'));
    CHECK(big.err == std::string(2000000, 'e'));

    // A probe before every operation (keepalive_s = 0) does not mistake a healthy connection for a dropped
    // one.
    SshSettings probing = settingsFor(cluster);
    probing.keepalive_s = 0;
    SshTransport probed(probing);
    for (int i = 0; i < 3; ++i)
        CHECK(probed.run("echo ok").out == "ok\n");
    CHECK(probed.reconnectCount() == 0);
}

TEST_CASE("files go up and come back over SFTP, a file reads from any offset, a missing one as nothing",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    TemporaryFolder folder;
    std::string content(1 << 20, '\0'); // 1 MiB of binary bytes, NULs included
    std::mt19937 random(42);
    std::generate(content.begin(), content.end(), [&] { return static_cast<char>(random() & 0xff); });
    spit(folder.path / "up.bin", content);
    const std::string remote = cluster["SSH_WORKDIR"] + "/roundtrip-" + std::to_string(getpid()) + ".bin";
    const RemovedAtEnd removed{remote};

    ssh.upload(folder.path / "up.bin", remote);
    CHECK(fileText(remote) == content); // the sshd's machine is this one
    ssh.download(remote, folder.path / "down.bin");
    CHECK(fileText(folder.path / "down.bin") == content);

    CHECK(ssh.readFrom(remote, 0, 100) == content.substr(0, 100));
    CHECK(ssh.readFrom(remote, 500000, 300000) == content.substr(500000, 300000));
    CHECK(ssh.readFrom(remote, 1000000, 1 << 20) == content.substr(1000000)); // what is left: 48576 bytes
    CHECK(ssh.readFrom(remote, 1 << 20, 100) == std::string());
    CHECK_FALSE(ssh.readFrom(cluster["SSH_WORKDIR"] + "/no-such-file", 0, 100).has_value());
    CHECK_FALSE(ssh.readFrom("/no/such/folder/file", 0, 100).has_value());

    const std::string error = errorOf([&] { ssh.upload(folder.path / "up.bin", "/no/such/folder/file"); });
    CHECK_THAT(error,
               Contains(cluster.hostPort()) && Contains("/no/such/folder/file") && Contains("No such file"));
    CHECK_THAT(errorOf([&] { ssh.download("/no/such/file", folder.path / "x"); }), Contains("/no/such/file"));
}

TEST_CASE("readFrom throughput and run latency over loopback (printed, not asserted)",
          "[integration][ssh][measure]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    constexpr std::size_t kFileBytes = 50'000'000;
    constexpr std::size_t kChunkBytes = 1 << 20; // as MetricFileTail reads
    std::string content(kFileBytes, '\0');
    std::mt19937 random(7);
    std::generate(content.begin(), content.end(), [&] { return static_cast<char>(random() & 0xff); });
    const std::string path = cluster["SSH_WORKDIR"] + "/throughput-" + std::to_string(getpid()) + ".bin";
    const RemovedAtEnd removed{path};
    spit(path, content);
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };

    REQUIRE(ssh.readFrom(path, 0, kChunkBytes)); // warm-up
    std::string read;
    read.reserve(kFileBytes);
    const auto start = Clock::now();
    while (read.size() < kFileBytes) {
        const auto chunk = ssh.readFrom(path, static_cast<std::int64_t>(read.size()), kChunkBytes);
        REQUIRE(chunk.has_value());
        REQUIRE_FALSE(chunk->empty());
        read += *chunk;
    }
    const double read_s = seconds(Clock::now() - start);
    CHECK(read == content);

    TemporaryFolder folder;
    auto timed = [&](const std::function<void()>& action) {
        const auto begin = Clock::now();
        action();
        return seconds(Clock::now() - begin);
    };
    const double download_s = timed([&] { ssh.download(path, folder.path / "down.bin"); });
    const double upload_s = timed([&] { ssh.upload(folder.path / "down.bin", path + ".up"); });
    const RemovedAtEnd removed_upload{path + ".up"};
    CHECK(fileText(path + ".up") == content);

    ssh.run("true"); // warm-up
    std::vector<double> latencies_ms;
    for (int i = 0; i < 20; ++i)
        latencies_ms.push_back(1000 * timed([&] { ssh.run("true"); }));
    std::sort(latencies_ms.begin(), latencies_ms.end());
    const double median_ms = (latencies_ms[9] + latencies_ms[10]) / 2;

    const double megabytes = kFileBytes / 1e6;
    WARN("ssh over loopback: readFrom " << megabytes / read_s << " MB/s (50 MB in 1 MiB calls), download "
                                        << megabytes / download_s << " MB/s, upload " << megabytes / upload_s
                                        << " MB/s; run(\"true\") median " << median_ms << " ms (20 runs, min "
                                        << latencies_ms.front() << ", max " << latencies_ms.back() << ")");
}
