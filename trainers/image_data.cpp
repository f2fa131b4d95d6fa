// Image classification data for the engine: a rank's disjoint shard of Fashion-MNIST, or synthetic
// CIFAR-shaped data.
#include "image_data.h"

#include "idx_file.h"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {
// Fashion-MNIST training-set pixel statistics, for inputs of mean 0 and standard deviation 1.
constexpr double kFashionMnistMean = 0.2860;
constexpr double kFashionMnistStd = 0.3530;

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
    archive.write("sampler_order",
                  torch::from_blob(const_cast<int64_t*>(order_.data()), {static_cast<int64_t>(order_.size())},
                                   torch::kInt64)
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
