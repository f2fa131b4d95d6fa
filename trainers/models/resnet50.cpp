// ResNet-50 v1.5 as torchvision builds it: bottleneck blocks [3, 4, 6, 3], stride on the 3x3 convolution.
#include "resnet50.h"

#include <array>
#include <string>

namespace scalebench {
namespace {

// Bottleneck blocks in each of the four stages (ResNet-50).
constexpr std::array<int64_t, 4> kBlocks = {3, 4, 6, 3};

torch::nn::Conv2dOptions conv(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
    return torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false);
}

} // namespace

BottleneckImpl::BottleneckImpl(int64_t in_channels, int64_t width, int64_t stride)
    : conv1(register_module("conv1", torch::nn::Conv2d(conv(in_channels, width, 1, 1)))),
      bn1(register_module("bn1", torch::nn::BatchNorm2d(width))),
      conv2(register_module("conv2", torch::nn::Conv2d(conv(width, width, 3, stride)))),
      bn2(register_module("bn2", torch::nn::BatchNorm2d(width))),
      conv3(register_module("conv3", torch::nn::Conv2d(conv(width, width * kExpansion, 1, 1)))),
      bn3(register_module("bn3", torch::nn::BatchNorm2d(width * kExpansion))) {
    if (stride != 1 || in_channels != width * kExpansion) {
        downsample = register_module(
            "downsample",
            torch::nn::Sequential(torch::nn::Conv2d(conv(in_channels, width * kExpansion, 1, stride)),
                                  torch::nn::BatchNorm2d(width * kExpansion)));
    }
}

torch::Tensor BottleneckImpl::forward(const torch::Tensor& x) {
    torch::Tensor out = torch::relu(bn1(conv1(x))); // (B, width, H, W)
    out = torch::relu(bn2(conv2(out)));             // (B, width, H/stride, W/stride)
    out = bn3(conv3(out));                          // (B, 4 width, H/stride, W/stride)
    return torch::relu(out + (downsample ? downsample->forward(x) : x));
}

ResNet50Impl::ResNet50Impl(int64_t classes, int64_t base_width)
    : conv1(register_module("conv1", torch::nn::Conv2d(conv(3, base_width, 7, 2)))),
      bn1(register_module("bn1", torch::nn::BatchNorm2d(base_width))) {
    int64_t channels = base_width;
    torch::nn::Sequential* layers[4] = {&layer1, &layer2, &layer3, &layer4};
    for (std::size_t s = 0; s < kBlocks.size(); ++s) {
        const int64_t width = base_width << s;
        torch::nn::Sequential stage;
        for (int64_t b = 0; b < kBlocks[s]; ++b) {
            stage->push_back(Bottleneck(channels, width, (b == 0 && s > 0) ? 2 : 1));
            channels = width * BottleneckImpl::kExpansion;
        }
        *layers[s] = register_module("layer" + std::to_string(s + 1), stage);
    }
    fc = register_module("fc", torch::nn::Linear(channels, classes));
    // torchvision's initialisation: He normal (fan-out) convolutions, BatchNorm 1 and 0, default Linear.
    for (auto& m : modules(/*include_self=*/false)) {
        if (auto* c = m->as<torch::nn::Conv2d>())
            torch::nn::init::kaiming_normal_(c->weight, 0.0, torch::kFanOut, torch::kReLU);
    }
}

torch::Tensor ResNet50Impl::forward(const torch::Tensor& x) {
    torch::Tensor out = torch::relu(bn1(conv1(x))); // (B, w, H/2, W/2)
    out = torch::max_pool2d(out, /*kernel_size=*/{3, 3}, /*stride=*/{2, 2},
                            /*padding=*/{1, 1});                                   // (B, w, H/4, W/4)
    out = layer4->forward(layer3->forward(layer2->forward(layer1->forward(out)))); // (B, 32 w, H/32, W/32)
    out = torch::adaptive_avg_pool2d(out, {1, 1}).flatten(1);                      // (B, 32 w)
    return fc(out);                                                                // (B, classes)
}

double resnet50ForwardFlops(int64_t side, int64_t classes, int64_t base_width) {
    // Output side of a k x k convolution (padding k / 2) or 3x3 max-pool (padding 1) with stride s.
    auto after = [](int64_t in, int64_t k, int64_t s) { return (in + 2 * (k / 2) - k) / s + 1; };
    double macs = 0;
    auto convolution = [&](int64_t in_side, int64_t cin, int64_t cout, int64_t k, int64_t s) {
        const int64_t out_side = after(in_side, k, s);
        macs += static_cast<double>(out_side * out_side) * static_cast<double>(cin * cout * k * k);
        return out_side;
    };
    int64_t h = convolution(side, 3, base_width, 7, 2);
    h = after(h, 3, 2);
    int64_t channels = base_width;
    for (std::size_t s = 0; s < kBlocks.size(); ++s) {
        const int64_t width = base_width << s;
        for (int64_t b = 0; b < kBlocks[s]; ++b) {
            const int64_t stride = (b == 0 && s > 0) ? 2 : 1, out = width * BottleneckImpl::kExpansion;
            convolution(h, channels, width, 1, 1);
            const int64_t h2 = convolution(h, width, width, 3, stride);
            convolution(h2, width, out, 1, 1);
            if (stride != 1 || channels != out) convolution(h, channels, out, 1, stride);
            h = h2;
            channels = out;
        }
    }
    macs += static_cast<double>(channels * classes);
    return 2 * macs;
}

} // namespace scalebench
