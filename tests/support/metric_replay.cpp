// scalebench-metric-replay: stands where the engine stands in a job (same command line), but writes a metric
// stream recorded from a real engine run instead of training, so that the reliability tests and soaks can
// drive the console through thousands of runs in minutes.
//
//   scalebench-metric-replay --recordings DIR [--lines-per-second N] [ENGINE OPTIONS...]
//
// Of the engine's options only --metrics FILE and --seed N (1 when not given) are used: the lines of
// DIR/seed-N.jsonl (tests/data/recorded/) are appended to FILE one write(2) each, as the engine writes them,
// N a second (0: as fast as the disk takes them). Every other option is the console's and is ignored. Rank 0
// alone writes, as the engine's rank 0 does.
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct ReplayOptions {
    std::string recordings;
    std::string metrics;
    std::string seed = "1";
    double lines_per_second = 0;
};

ReplayOptions readOptions(int argc, char** argv) {
    ReplayOptions options;
    for (int i = 1; i + 1 < argc; ++i) {
        const std::string name = argv[i];
        if (name == "--recordings")
            options.recordings = argv[++i];
        else if (name == "--seed")
            options.seed = argv[++i];
        else if (name == "--metrics")
            options.metrics = argv[++i];
        else if (name == "--lines-per-second")
            options.lines_per_second = std::stod(argv[++i]);
    }
    if (options.recordings.empty() || options.metrics.empty())
        throw std::invalid_argument("needs --recordings DIR and --metrics FILE");
    return options;
}

int worldRank() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"})
        if (const char* value = std::getenv(name)) return std::atoi(value);
    return 0;
}

void writeAll(int fd, const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) throw std::runtime_error("cannot write the metric file");
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

int main(int argc, char** argv) {
    try {
        const ReplayOptions options = readOptions(argc, argv);
        if (worldRank() != 0) return 0;
        const std::string file = options.recordings + "/seed-" + options.seed + ".jsonl";
        std::ifstream recording(file);
        if (!recording) throw std::runtime_error("cannot read the recording " + file);
        std::vector<std::string> lines;
        for (std::string line; std::getline(recording, line);)
            lines.push_back(line + "\n");
        const int fd = ::open(options.metrics.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd < 0) throw std::runtime_error("cannot open the metric file " + options.metrics);
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (options.lines_per_second > 0)
                std::this_thread::sleep_until(
                    start +
                    std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::duration<double>(static_cast<double>(i) / options.lines_per_second)));
            writeAll(fd, lines[i]);
        }
        ::close(fd);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "scalebench-metric-replay: " << e.what() << "\n";
        return 2;
    }
}
