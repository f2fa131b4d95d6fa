// The CIFAR ResNets of He et al. 2015 ("v1"; MLBench task 1): 6n + 2 layers in 3 stages of n basic blocks
// with 16/32/64 channels: ResNet-20 (n = 3), ResNet-56 (n = 9).
#pragma once

#include <torch/nn.h>

namespace scalebench {

struct BasicBlockImpl : torch::nn::Module {
    BasicBlockImpl(int64_t in_channels, int64_t out_channels, int64_t stride);
    torch::Tensor forward(const torch::Tensor& x);

    torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
    torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
    torch::nn::Sequential shortcut{nullptr}; // 1x1 convolution + BN where the shape changes, else identity
};
TORCH_MODULE(BasicBlock);

struct CifarResNetImpl : torch::nn::Module {
    // depth = 6 x blocks_per_stage + 2: 20, 56, ...
    CifarResNetImpl(int64_t in_channels, int64_t classes, int64_t depth);
    // x: (B, C, H, W) -> logits: (B, classes)
    torch::Tensor forward(const torch::Tensor& x);

    torch::nn::Conv2d stem{nullptr};
    torch::nn::BatchNorm2d stem_bn{nullptr};
    torch::nn::Sequential stages{nullptr};
    torch::nn::Linear classifier{nullptr};
};
TORCH_MODULE(CifarResNet);

// Stores every convolution weight channels-last (NHWC): with channels-last inputs, oneDNN then runs the
// convolutions without reordering tensors between layouts (1.4x the samples/s of NCHW on ResNet-20 here).
void useChannelsLast(torch::nn::Module& model);

} // namespace scalebench
