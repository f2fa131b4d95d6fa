// Benchmark: how many metric records per second the console takes in, from a run's file to the SQLite store,
// locally and over SSH (SFTP), against the 10,000 records/s a run may write; and SFTP reading against
// OpenSSH's own `ssh cat` of the same file, measured side by side. Medians of 5 repetitions.
//
//   stream_bench [RECORDS]                      this machine only
//   SCALEBENCH_TEST_CLUSTER=DIR stream_bench    also over SSH to the test cluster's sshd (tests/cluster)
#include "local_transport.h"
#include "metric_file_tail.h"
#include "scratch_folder.h"
#include "session_store.h"
#include "ssh_transport.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>

using namespace scalebench;
using Clock = std::chrono::steady_clock;

namespace {
constexpr double kRequiredRecordsPerSecond = 10000;
constexpr int kRepetitions = 5;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A metric file as the engine writes it: a header, then step records of the real shape.
void writeStream(const std::string& path, int records) {
    std::ofstream out(path);
    out << R"({"type":"header","version":1,"workload":"resnet20","dataset":"synthetic-cifar","ranks":2})"
        << "\n";
    for (int i = 1; i <= records; ++i)
        out << fmt::format(
                   R"({{"allreduce_s":0.001280138,"backward_s":0.399155782,"data_s":0.000171034,)"
                   R"("elapsed_s":{:.6f},"epoch":0,"forward_s":0.3006192,"loss":{:.9f},"lr":0.020085470085,)"
                   R"("optimizer_s":0.000875197,"samples_per_s":364.6197228297314,"step":{},)"
                   R"("step_s":0.702101351,"type":"step"}})",
                   i * 0.7, 2.3 / i, i)
            << "\n";
}

// Seconds to take the whole file into a fresh store through the transport, as SessionRunner does.
double ingest(Transport& transport, const std::string& path, const std::filesystem::path& db, int expected) {
    std::filesystem::remove(db);
    SessionStore store(db);
    const auto run =
        store.createRun(store.createSession("bench", "", "local"), {"r", "resnet20", "x", 1, 1, ""});
    MetricFileTail tail(transport, path);
    const auto start = Clock::now();
    store.appendRecords(run, tail.finish());
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (static_cast<int>(store.steps(run).size()) != expected) {
        std::fprintf(stderr, "stored %zu steps, expected %d\n", store.steps(run).size(), expected);
        std::exit(1);
    }
    return seconds;
}

// Prints the median time of kRepetitions ingests and the rate against what a run may write.
void reportIngest(const char* label, Transport& transport, const std::string& stream,
                  const std::filesystem::path& db, int records) {
    std::vector<double> seconds;
    for (int i = 0; i < kRepetitions; ++i)
        seconds.push_back(ingest(transport, stream, db, records));
    const double s = median(seconds);
    std::printf("%-46s %12.3f %14.0f %9.1fx  (against %.0f records/s a run may write)\n", label, s,
                records / s, records / s / kRequiredRecordsPerSecond, kRequiredRecordsPerSecond);
}

std::map<std::string, std::string> clusterEnvironment(const std::string& dir) {
    std::map<std::string, std::string> env;
    std::ifstream in(dir + "/cluster.env");
    for (std::string line; std::getline(in, line);) {
        const auto eq = line.find('=');
        if (eq != std::string::npos && line[0] != '#') env[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return env;
}
} // namespace

int main(int argc, char** argv) {
    const int records = argc > 1 ? std::atoi(argv[1]) : 100000;
    const ScratchFolder scratch("scalebench-bench");
    const std::filesystem::path& dir = scratch.path();
    std::filesystem::permissions(dir, std::filesystem::perms::all);
    const std::string stream = (dir / "metrics.jsonl").string();
    writeStream(stream, records);
    std::filesystem::permissions(stream, std::filesystem::perms::all);
    const double megabytes = static_cast<double>(std::filesystem::file_size(stream)) / 1e6;
    std::printf("metric stream: %d step records, %.1f MB; medians of %d repetitions\n\n", records, megabytes,
                kRepetitions);
    std::printf("%-46s %12s %14s %10s\n", "path", "seconds", "records/s", "ratio");

    LocalTransport local;
    reportIngest("file -> parser -> SQLite, this machine", local, stream, dir / "local.db", records);

    const char* cluster = std::getenv("SCALEBENCH_TEST_CLUSTER");
    if (cluster) {
        auto env = clusterEnvironment(cluster);
        SshSettings ssh;
        ssh.host = env["SSH_HOST"];
        ssh.port = std::atoi(env["SSH_PORT"].c_str());
        ssh.user = env["SSH_USER"];
        ssh.identity_files = {env["SSH_KEY"]};
        ssh.known_hosts_file = env["SSH_KNOWN_HOSTS"];
        ssh.config_file = "";
        SshTransport remote(ssh);
        reportIngest("SFTP -> parser -> SQLite, over SSH (loopback)", remote, stream, dir / "ssh.db",
                     records);

        // The peer: OpenSSH's client reading the same file over the same server.
        const std::string peer = fmt::format(
            "ssh -q -o BatchMode=yes -o UserKnownHostsFile={} -o StrictHostKeyChecking=yes -i {} -p {} {}@{} "
            "cat {} > /dev/null",
            env["SSH_KNOWN_HOSTS"], env["SSH_KEY"], env["SSH_PORT"], env["SSH_USER"], env["SSH_HOST"],
            stream);
        std::vector<double> ours, theirs;
        for (int i = 0; i < kRepetitions; ++i) {
            auto start = Clock::now();
            std::int64_t offset = 0;
            while (auto bytes = remote.readFrom(stream, offset, MetricFileTail::kChunkBytes)) {
                if (bytes->empty()) break;
                offset += static_cast<std::int64_t>(bytes->size());
            }
            ours.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            start = Clock::now();
            if (std::system(peer.c_str()) != 0) return 1;
            theirs.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        }
        std::printf("%-46s %12.3f %12.1f MB/s\n", "SFTP readFrom of the whole file (ours)", median(ours),
                    megabytes / median(ours));
        std::printf("%-46s %12.3f %12.1f MB/s\n", "ssh cat of the whole file (OpenSSH, peer)", median(theirs),
                    megabytes / median(theirs));
        std::printf("ratio ours / OpenSSH: %.2f\n", median(theirs) / median(ours));
    }
    return 0;
}
