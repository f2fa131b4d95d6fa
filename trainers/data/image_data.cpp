// Image classification data for the engine: a rank's disjoint shard of Fashion-MNIST or CIFAR-10, synthetic
// CIFAR- or ImageNet-shaped data, and CIFAR's training augmentation.
#include "image_data.h"

#include "idx_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {
// Fashion-MNIST training-set pixel statistics, for inputs of mean 0 and standard deviation 1.
constexpr double kFashionMnistMean = 0.2860;
constexpr double kFashionMnistStd = 0.3530;
// CIFAR-10 training-set channel statistics (R, G, B) of pixels scaled to [0, 1].
constexpr double kCifar10Mean[3] = {0.4914, 0.4822, 0.4465};
constexpr double kCifar10Std[3] = {0.2470, 0.2435, 0.2616};
// A CIFAR-10 binary record: 1 label byte, then 3 x 32 x 32 pixel bytes.
constexpr int64_t kCifarSide = 32;
constexpr int64_t kCifarRecord = 1 + 3 * kCifarSide * kCifarSide;

std::filesystem::path idxPath(const std::string& dir, const std::string& name) {
    std::filesystem::path plain = std::filesystem::path(dir) / name;
    return std::filesystem::exists(plain) ? plain : std::filesystem::path(plain.string() + ".gz");
}
} // namespace

LabelledImages loadFashionMnistShard(const std::string& dir, const std::string& split, int rank, int ranks) {
    IdxArray images = readIdxFile(idxPath(dir, split + "-images-idx3-ubyte"));
    IdxArray labels = readIdxFile(idxPath(dir, split + "-labels-idx1-ubyte"));
    if (images.dims.size() != 3 || labels.dims.size() != 1 || images.dims[0] != labels.dims[0])
        throw std::runtime_error("Fashion-MNIST " + split + " in " + dir +
                                 ": images and labels do not match");
    const int64_t n = images.dims[0], h = images.dims[1], w = images.dims[2];
    auto all_images = torch::from_blob(images.data.data(), {n, 1, h, w}, torch::kUInt8);
    auto all_labels = torch::from_blob(labels.data.data(), {n}, torch::kUInt8);
    auto shard = torch::arange(rank, n, ranks, torch::kInt64); // disjoint across ranks
    LabelledImages out;
    out.images = all_images.index_select(0, shard)
                     .to(torch::kFloat32)
                     .div_(255.0)
                     .sub_(kFashionMnistMean)
                     .div_(kFashionMnistStd);
    out.labels = all_labels.index_select(0, shard).to(torch::kInt64);
    return out;
}

LabelledImages loadCifar10Shard(const std::string& dir, const std::string& split, int rank, int ranks) {
    std::vector<std::string> names;
    if (split == "train")
        for (int i = 1; i <= 5; ++i)
            names.push_back("data_batch_" + std::to_string(i) + ".bin");
    else
        names.push_back("test_batch.bin");
    std::vector<int64_t> mine;        // global sample indices of this rank, in file order
    std::vector<uint8_t> label_bytes; // (n)
    std::vector<uint8_t> pixel_bytes; // (n, 3, 32, 32)
    int64_t global = 0;
    for (const auto& name : names) {
        const std::filesystem::path path = std::filesystem::path(dir) / name;
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error("CIFAR-10: " + path.string() + " cannot be read (missing file?)");
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto size = static_cast<int64_t>(bytes.size());
        if (size == 0 || size % kCifarRecord != 0)
            throw std::runtime_error("CIFAR-10: " + path.string() + " has " + std::to_string(size) +
                                     " bytes, not a whole number of " + std::to_string(kCifarRecord) +
                                     "-byte records");
        for (int64_t r = 0; r < size / kCifarRecord; ++r, ++global) {
            const auto* record = reinterpret_cast<const uint8_t*>(bytes.data()) + r * kCifarRecord;
            if (record[0] > 9)
                throw std::runtime_error("CIFAR-10: " + path.string() + ": record " + std::to_string(r + 1) +
                                         " has label " + std::to_string(record[0]) + ", not 0-9");
            if (global % ranks != rank) continue; // disjoint across ranks
            label_bytes.push_back(record[0]);
            pixel_bytes.insert(pixel_bytes.end(), record + 1, record + kCifarRecord);
        }
    }
    const auto n = static_cast<int64_t>(label_bytes.size());
    LabelledImages out;
    out.images = torch::from_blob(pixel_bytes.data(), {n, 3, kCifarSide, kCifarSide}, torch::kUInt8)
                     .to(torch::kFloat32)
                     .div_(255.0);
    const auto options = torch::TensorOptions().dtype(torch::kFloat32);
    out.images
        .sub_(torch::tensor({kCifar10Mean[0], kCifar10Mean[1], kCifar10Mean[2]}, options).view({1, 3, 1, 1}))
        .div_(torch::tensor({kCifar10Std[0], kCifar10Std[1], kCifar10Std[2]}, options).view({1, 3, 1, 1}));
    out.labels = torch::from_blob(label_bytes.data(), {n}, torch::kUInt8).to(torch::kInt64);
    return out;
}

LabelledImages syntheticImages(int64_t samples, int64_t side, int64_t classes, int seed) {
    torch::manual_seed(static_cast<uint64_t>(seed));
    return {torch::randn({samples, 3, side, side}), torch::randint(0, classes, {samples}, torch::kInt64)};
}

torch::Tensor randomCropAndFlip(const torch::Tensor& images, int64_t padding, std::mt19937_64& random) {
    const int64_t h = images.size(2), w = images.size(3);
    const auto padded =
        torch::constant_pad_nd(images, {padding, padding, padding, padding}, 0); // (B, C, H+2p, W+2p)
    std::uniform_int_distribution<int64_t> offset(0, 2 * padding);
    std::bernoulli_distribution flip(0.5);
    std::vector<torch::Tensor> out;
    out.reserve(static_cast<std::size_t>(images.size(0)));
    for (int64_t i = 0; i < images.size(0); ++i) {
        const int64_t dy = offset(random), dx = offset(random);
        auto crop = padded[i].narrow(1, dy, h).narrow(2, dx, w); // (C, H, W)
        out.push_back(flip(random) ? crop.flip({2}) : crop);
    }
    return torch::stack(out);
}

LabelledImages syntheticCifar(int64_t samples, int seed) {
    torch::manual_seed(static_cast<uint64_t>(seed));
    return {torch::randn({samples, 3, 32, 32}), torch::randint(0, 10, {samples}, torch::kInt64)};
}

BatchSampler::BatchSampler(LabelledImages data, int64_t batch_size, uint64_t seed)
    : data_(std::move(data)), batch_size_(batch_size), random_(seed), order_(data_.size()) {
    if (data_.size() < batch_size_)
        throw std::runtime_error("a batch of " + std::to_string(batch_size_) + " needs more than the " +
                                 std::to_string(data_.size()) + " samples of this rank's shard");
    std::iota(order_.begin(), order_.end(), 0);
    shuffle();
}

void BatchSampler::shuffle() {
    std::shuffle(order_.begin(), order_.end(), random_);
    position_ = 0;
}

std::pair<torch::Tensor, torch::Tensor> BatchSampler::next() {
    if (position_ + batch_size_ > data_.size()) {
        ++epoch_;
        shuffle();
    }
    auto indices = torch::from_blob(order_.data() + position_, {batch_size_}, torch::kInt64);
    position_ += batch_size_;
    return {data_.images.index_select(0, indices), data_.labels.index_select(0, indices)};
}

void BatchSampler::saveState(torch::serialize::OutputArchive& archive) const {
    std::ostringstream random;
    random << random_;
    archive.write("sampler_epoch", c10::IValue(epoch_));
    archive.write("sampler_position", c10::IValue(position_));
    archive.write("sampler_order", torch::from_blob(const_cast<int64_t*>(order_.data()),
                                                    {static_cast<int64_t>(order_.size())}, torch::kInt64)
                                       .clone());
    archive.write("sampler_random", c10::IValue(random.str()));
}

void BatchSampler::loadState(torch::serialize::InputArchive& archive) {
    c10::IValue epoch, position, random;
    torch::Tensor order;
    archive.read("sampler_epoch", epoch);
    archive.read("sampler_position", position);
    archive.read("sampler_order", order);
    archive.read("sampler_random", random);
    if (order.numel() != static_cast<int64_t>(order_.size()))
        throw std::runtime_error("the checkpoint's sample order has " + std::to_string(order.numel()) +
                                 " samples, this rank's shard " + std::to_string(order_.size()));
    order = order.to(torch::kInt64).contiguous();
    std::copy_n(order.data_ptr<int64_t>(), order_.size(), order_.begin());
    epoch_ = epoch.toInt();
    position_ = position.toInt();
    std::istringstream text(random.toStringRef());
    text >> random_;
    if (!text) throw std::runtime_error("the checkpoint's sampler random state is corrupt");
}

} // namespace scalebench
