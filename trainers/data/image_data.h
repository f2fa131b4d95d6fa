// Image classification data for the engine: a rank's disjoint shard of Fashion-MNIST or CIFAR-10, synthetic
// CIFAR- or ImageNet-shaped data, and CIFAR's training augmentation.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <utility>
#include <vector>

namespace scalebench {

struct LabelledImages {
    torch::Tensor images; // (N, C, H, W) float32, normalised
    torch::Tensor labels; // (N) int64 class indices
    int64_t size() const { return labels.size(0); }
};

// Samples rank, rank + ranks, rank + 2 ranks, ... of split "train" or "t10k" from the IDX files in dir.
LabelledImages loadFashionMnistShard(const std::string& dir, const std::string& split, int rank, int ranks);
// Samples rank, rank + ranks, ... of the CIFAR-10 binary files in dir: split "train" reads data_batch_1.bin
// .. data_batch_5.bin, "test" reads test_batch.bin (each record: 1 label byte, then 3072 bytes of 3 x 32 x 32
// row-major planes R, G, B). Images normalised with the CIFAR-10 training set's channel mean and standard
// deviation. Throws std::runtime_error naming the file for a missing file, a size that is not a whole number
// of records, or a label outside 0-9.
LabelledImages loadCifar10Shard(const std::string& dir, const std::string& split, int rank, int ranks);
// Random images (N, 3, 32, 32) and labels, the same for a given seed: for throughput runs.
LabelledImages syntheticCifar(int64_t samples, int seed);
// Random images (N, 3, side, side) and labels in [0, classes), the same for a given seed (ImageNet-shaped
// synthetic data for throughput runs, as MLPerf's and MaxText's synthetic inputs).
LabelledImages syntheticImages(int64_t samples, int64_t side, int64_t classes, int seed);

// He et al. 2015's CIFAR augmentation on a batch (B, C, H, W): each image padded by `padding` pixels of zero
// (the normalised mean) on every side, a random H x W crop taken, and flipped horizontally with probability
// 1/2.
torch::Tensor randomCropAndFlip(const torch::Tensor& images, int64_t padding, std::mt19937_64& random);

// Mini-batches in a fresh random order each epoch.
class BatchSampler {
  public:
    BatchSampler(LabelledImages data, int64_t batch_size, uint64_t seed);
    // images: (B, C, H, W), labels: (B)
    std::pair<torch::Tensor, torch::Tensor> next();
    int64_t epoch() const { return epoch_; }
    int64_t batchesPerEpoch() const { return data_.size() / batch_size_; }
    // Checkpoints: the epoch, the position in it, this epoch's order and the random generator, so that a
    // resumed run draws the same batches as one that never stopped.
    void saveState(torch::serialize::OutputArchive& archive) const;
    void loadState(torch::serialize::InputArchive& archive);

  private:
    void shuffle();

    LabelledImages data_;
    int64_t batch_size_;
    std::mt19937_64 random_;
    std::vector<int64_t> order_;
    int64_t position_ = 0;
    int64_t epoch_ = 0;
};

} // namespace scalebench
