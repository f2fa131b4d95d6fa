// Specification of the engine's parts without LibTorch: the IDX reader and the command line.
#include "engine_options.h"
#include "idx_file.h"
#include "message_sizes.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <zlib.h>

using namespace scalebench;

namespace {
const std::vector<unsigned char> kImages = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0,  0,  2,
                                            0, 0, 0, 3, // 2 images of 2x3
                                            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
void writePlain(const std::filesystem::path& p, const std::vector<unsigned char>& bytes) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}
void writeGzip(const std::filesystem::path& p, const std::vector<unsigned char>& bytes) {
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
}
} // namespace

TEST_CASE("IDX files are read plain or gzip-compressed", "[engine][data]") {
    TemporaryFolder folder;
    writePlain(folder.path / "images", kImages);
    writeGzip(folder.path / "images.gz", kImages);
    for (const char* name : {"images", "images.gz"}) {
        const IdxArray a = readIdxFile(folder.path / name);
        CHECK(a.dims == std::vector<std::int64_t>{2, 2, 3});
        REQUIRE(a.data.size() == 12);
        CHECK(a.data[11] == 12);
    }
}

TEST_CASE("broken IDX files are refused with the file and the problem", "[engine][data]") {
    TemporaryFolder folder;
    auto truncated = kImages;
    truncated.resize(20);
    writePlain(folder.path / "truncated", truncated);
    CHECK_THROWS_WITH(readIdxFile(folder.path / "truncated"), Catch::Contains("truncated data"));
    writePlain(folder.path / "floats", {0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0});
    CHECK_THROWS_WITH(readIdxFile(folder.path / "floats"), Catch::Contains("is not unsigned byte"));
    writePlain(folder.path / "text", {'h', 'e', 'l', 'l', 'o'});
    CHECK_THROWS_WITH(readIdxFile(folder.path / "text"), Catch::Contains("bad magic"));
    CHECK_THROWS_WITH(readIdxFile(folder.path / "missing"), Catch::Contains("missing: cannot open"));
}

TEST_CASE("Debian's Fashion-MNIST test labels: 10,000 labels of 10 classes", "[engine][data]") {
    const IdxArray labels = readIdxFile("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz");
    CHECK(labels.dims == std::vector<std::int64_t>{10000});
    std::vector<int> per_class(10);
    for (auto l : labels.data) {
        REQUIRE(l < 10);
        ++per_class[l];
    }
    CHECK(per_class == std::vector<int>(10, 1000));
}

TEST_CASE("the engine's command line names a wrong option and its problem", "[engine]") {
    const EngineOptions o = parseEngineOptions({"--metrics", "m.jsonl", "--steps", "50", "--lr", "0.1"});
    CHECK(o.steps == 50);
    CHECK(o.lr == 0.1);
    CHECK_THROWS_WITH(parseEngineOptions({"--steps", "50"}), Catch::Contains("--metrics"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "many"}),
                      "--steps: 'many' is not a number");
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "0"}), Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--stpes", "5"}), "unknown option '--stpes'");
}

TEST_CASE("sweep sizes are numpy's logspace rounded, without repeats", "[engine]") {
    const auto mlbench = logspaceSizes(8, 80); // MLBench task 0
    CHECK(mlbench.front() == 1);
    CHECK(mlbench.back() == 100000000);
    CHECK(mlbench.size() <= 80);
    CHECK(std::is_sorted(mlbench.begin(), mlbench.end()));
    CHECK(std::adjacent_find(mlbench.begin(), mlbench.end()) == mlbench.end());
    CHECK(logspaceSizes(6, 13) == std::vector<std::int64_t>{1, 3, 10, 32, 100, 316, 1000, 3162, 10000, 31623,
                                                            100000, 316228, 1000000});
}

TEST_CASE("the engine's communication options: backend, buckets, overlap and the sweep's cases", "[engine]") {
    const EngineOptions defaults = parseEngineOptions({"--metrics", "m"});
    CHECK(defaults.backend == "mpi");
    CHECK(defaults.bucket_mb == 25); // PyTorch DDP's bucket_cap_mb
    CHECK(defaults.overlap);
    CHECK(defaults.collectives == std::vector<std::string>{"allreduce"});
    CHECK(defaults.dtypes == std::vector<std::string>{"float32"});
    CHECK(defaults.ops == std::vector<std::string>{"sum"});
    CHECK(defaults.placement == "out-of-place");
    CHECK(defaults.timing == "back-to-back"); // nccl-tests' loop
    CHECK(defaults.target_accuracy == 0);

    const EngineOptions o =
        parseEngineOptions({"--metrics", "m", "--backend", "gloo", "--bucket-mb", "0.5", "--no-overlap",
                            "--collectives", "alltoall,allreduce,alltoall", "--dtypes", "bfloat16,float16",
                            "--ops", "avg", "--placement", "both"});
    CHECK(o.backend == "gloo");
    CHECK(o.bucket_mb == 0.5);
    CHECK_FALSE(o.overlap);
    CHECK(o.collectives == std::vector<std::string>{"alltoall", "allreduce"}); // repeats dropped
    CHECK(o.dtypes == std::vector<std::string>{"bfloat16", "float16"});
    CHECK(o.ops == std::vector<std::string>{"avg"});
    CHECK(o.placement == "both");
    CHECK(parseEngineOptions({"--metrics", "m", "--timing", "per-call"}).timing == "per-call");
    CHECK(parseEngineOptions({"--metrics", "m", "--target-accuracy", "0.85"}).target_accuracy == 0.85);
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--target-accuracy", "85"}),
                      Catch::Contains("a fraction, at most 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--timing", "osu"}),
                      Catch::Contains("unknown 'osu'"));

    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--backend", "ucc"}),
                      "--backend: unknown 'ucc' (known: mpi, gloo, nccl)");
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--backend", "mpi,gloo"}),
                      Catch::Contains("takes one value"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--collectives", "allreduce,reduce"}),
                      Catch::Contains("unknown 'reduce'"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--dtypes", "float64"}),
                      Catch::Contains("float64"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--bucket-mb", "-1"}),
                      Catch::Contains("at least 0"));
}
