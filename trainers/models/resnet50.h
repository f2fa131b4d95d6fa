// ResNet-50 v1.5 as torchvision builds it (the MLPerf Training image-classification model): a 7x7 stem and
// max-pool, then bottleneck blocks [3, 4, 6, 3] with the stride on the 3x3 convolution; a base width
// other than 64 gives a narrower network of the same code (the forward-pass fixture).
#pragma once

#include <torch/nn.h>

namespace scalebench {

// 1x1 reduce, 3x3 (carries the stride: v1.5), 1x1 expand x4; torchvision's parameter names.
struct BottleneckImpl : torch::nn::Module {
    static constexpr int64_t kExpansion = 4;
    BottleneckImpl(int64_t in_channels, int64_t width, int64_t stride);
    torch::Tensor forward(const torch::Tensor& x);

    // Declared (so registered) in torchvision's order.
    torch::nn::Conv2d conv1{nullptr};
    torch::nn::BatchNorm2d bn1{nullptr};
    torch::nn::Conv2d conv2{nullptr};
    torch::nn::BatchNorm2d bn2{nullptr};
    torch::nn::Conv2d conv3{nullptr};
    torch::nn::BatchNorm2d bn3{nullptr};
    torch::nn::Sequential downsample{nullptr}; // 1x1 convolution + BN where the shape changes, else absent
};
TORCH_MODULE(Bottleneck);

struct ResNet50Impl : torch::nn::Module {
    // base_width: the stem's channels and the first stage's bottleneck width (64 in ResNet-50).
    explicit ResNet50Impl(int64_t classes = 1000, int64_t base_width = 64);
    // x: (B, 3, H, W) -> logits: (B, classes)
    torch::Tensor forward(const torch::Tensor& x);

    torch::nn::Conv2d conv1{nullptr};
    torch::nn::BatchNorm2d bn1{nullptr};
    torch::nn::Sequential layer1{nullptr}, layer2{nullptr}, layer3{nullptr}, layer4{nullptr};
    torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ResNet50);

// Multiply-adds x 2 of one forward pass of one (3, side, side) image: convolutions and the classifier
// (8.2e9 at side 224, width 64, 1000 classes; BatchNorm, ReLU and pooling left out).
double resnet50ForwardFlops(int64_t side, int64_t classes = 1000, int64_t base_width = 64);

} // namespace scalebench
