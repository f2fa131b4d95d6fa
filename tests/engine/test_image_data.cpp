// The image data readers and augmentation (trainers/data/image_data.h) on small files the tests write:
// CIFAR-10's binary format, disjoint shards per rank, normalisation, plain errors for missing and corrupt
// files.
#include "cifar10_files.h"
#include "image_data.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <torch/torch.h>

using namespace scalebench;

namespace {
// The global index written into a record's first red pixel, back from the normalised image.
int64_t indexOf(const torch::Tensor& image) {
    return std::lround((image[0][0][0].item<double>() * 0.2470 + 0.4914) * 255);
}
} // namespace

TEST_CASE("CIFAR-10 shards of every rank are disjoint and together hold every training record", "[models]") {
    TemporaryFolder folder;
    writeCifar10Folder(folder.path, 7, 5);
    for (int ranks : {1, 2, 3}) {
        std::set<int64_t> seen;
        int64_t total = 0;
        for (int rank = 0; rank < ranks; ++rank) {
            const LabelledImages shard = loadCifar10Shard(folder.path.string(), "train", rank, ranks);
            CHECK(shard.images.sizes() == torch::IntArrayRef({shard.size(), 3, 32, 32}));
            for (int64_t i = 0; i < shard.size(); ++i) {
                const int64_t index = indexOf(shard.images[i]);
                CHECK(index % ranks == rank);
                CHECK(shard.labels[i].item<int64_t>() == index % 10);
                seen.insert(index);
            }
            total += shard.size();
        }
        INFO(ranks << " ranks");
        CHECK(total == 35);
        CHECK(seen.size() == 35);
    }
    const LabelledImages test = loadCifar10Shard(folder.path.string(), "test", 0, 1);
    CHECK(test.size() == 5);
    CHECK(test.labels[4].item<int64_t>() == 4);
}

TEST_CASE("CIFAR-10 images are normalised with the training set's channel mean and standard deviation",
          "[models]") {
    TemporaryFolder folder;
    std::ofstream(folder.path / "test_batch.bin", std::ios::binary)
        .write(std::string(1, '\3').append(3072, static_cast<char>(128)).data(), 3073);
    const LabelledImages one = loadCifar10Shard(folder.path.string(), "test", 0, 1);
    CHECK(one.labels[0].item<int64_t>() == 3);
    CHECK(one.images[0][0][5][5].item<double>() == Approx((128 / 255.0 - 0.4914) / 0.2470).epsilon(1e-5));
    CHECK(one.images[0][1][5][5].item<double>() == Approx((128 / 255.0 - 0.4822) / 0.2435).epsilon(1e-5));
    CHECK(one.images[0][2][5][5].item<double>() == Approx((128 / 255.0 - 0.4465) / 0.2616).epsilon(1e-5));
}

TEST_CASE("a missing, truncated or mislabelled CIFAR-10 file is refused by name", "[models]") {
    TemporaryFolder folder;
    writeCifar10Folder(folder.path, 3, 2);
    const std::string dir = folder.path.string();

    std::filesystem::remove(folder.path / "data_batch_4.bin");
    CHECK_THROWS_WITH(loadCifar10Shard(dir, "train", 0, 1),
                      Catch::Contains("data_batch_4.bin") && Catch::Contains("cannot be read"));
    writeCifar10File(folder.path / "data_batch_4.bin", 9, 3);

    std::filesystem::resize_file(folder.path / "data_batch_2.bin", 2 * 3073 + 100);
    CHECK_THROWS_WITH(loadCifar10Shard(dir, "train", 1, 2), Catch::Contains("data_batch_2.bin") &&
                                                                Catch::Contains("6246 bytes") &&
                                                                Catch::Contains("3073-byte records"));
    writeCifar10File(folder.path / "data_batch_2.bin", 3, 3);

    std::fstream label(folder.path / "test_batch.bin", std::ios::binary | std::ios::in | std::ios::out);
    label.seekp(3073);
    label.put(static_cast<char>(12));
    label.close();
    CHECK_THROWS_WITH(loadCifar10Shard(dir, "test", 0, 1),
                      Catch::Contains("test_batch.bin") && Catch::Contains("record 2 has label 12"));
    CHECK(loadCifar10Shard(dir, "train", 0, 1).size() == 15);
}

TEST_CASE("random crop and flip keep the batch's shape and take each image from its padded self",
          "[models]") {
    std::mt19937_64 random(7);
    const auto images = torch::arange(2 * 3 * 8 * 8, torch::kFloat32).view({2, 3, 8, 8});
    std::set<std::pair<int64_t, bool>> kinds;
    for (int trial = 0; trial < 50; ++trial) {
        const auto out = randomCropAndFlip(images, 4, random);
        REQUIRE(out.sizes() == images.sizes());
        // Every crop is a window of the zero-padded image, maybe mirrored.
        const auto padded = torch::constant_pad_nd(images, {4, 4, 4, 4}, 0);
        for (int64_t i = 0; i < 2; ++i) {
            bool found = false;
            for (int64_t dy = 0; dy <= 8 && !found; ++dy)
                for (int64_t dx = 0; dx <= 8 && !found; ++dx)
                    for (bool flip : {false, true}) {
                        auto window = padded[i].narrow(1, dy, 8).narrow(2, dx, 8);
                        if (flip) window = window.flip({2});
                        if (torch::equal(window, out[i])) {
                            found = true;
                            kinds.insert({dx, flip});
                            break;
                        }
                    }
            CHECK(found);
        }
    }
    CHECK(kinds.size() > 6); // offsets and flips vary
}
