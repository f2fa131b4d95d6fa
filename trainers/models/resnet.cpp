// The CIFAR ResNets of He et al. 2015 ("v1"; MLBench task 1): 6n + 2 layers, 16/32/64 channels.
#include "resnet.h"

#include <stdexcept>
#include <string>
#include <torch/nn/functional.h>

namespace scalebench {
namespace {
torch::nn::Conv2dOptions conv3x3(int64_t in, int64_t out, int64_t stride) {
    return torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false);
}
} // namespace

BasicBlockImpl::BasicBlockImpl(int64_t in_channels, int64_t out_channels, int64_t stride)
    : conv1(register_module("conv1", torch::nn::Conv2d(conv3x3(in_channels, out_channels, stride)))),
      conv2(register_module("conv2", torch::nn::Conv2d(conv3x3(out_channels, out_channels, 1)))),
      bn1(register_module("bn1", torch::nn::BatchNorm2d(out_channels))),
      bn2(register_module("bn2", torch::nn::BatchNorm2d(out_channels))),
      shortcut(register_module("shortcut", torch::nn::Sequential())) {
    if (stride != 1 || in_channels != out_channels) {
        shortcut->push_back(torch::nn::Conv2d(
            torch::nn::Conv2dOptions(in_channels, out_channels, 1).stride(stride).bias(false)));
        shortcut->push_back(torch::nn::BatchNorm2d(out_channels));
    }
}

// In place where autograd allows it, as torchvision's BasicBlock (ReLU(inplace=True), out += identity): a
// block then allocates and streams three activations fewer.
torch::Tensor BasicBlockImpl::forward(const torch::Tensor& x) {
    torch::Tensor out = bn1(conv1(x)).relu_();
    out = bn2(conv2(out));
    out += shortcut->is_empty() ? x : shortcut->forward(x);
    return out.relu_();
}

CifarResNetImpl::CifarResNetImpl(int64_t in_channels, int64_t classes, int64_t depth)
    : stem(register_module("stem", torch::nn::Conv2d(conv3x3(in_channels, 16, 1)))),
      stem_bn(register_module("stem_bn", torch::nn::BatchNorm2d(16))),
      stages(register_module("stages", torch::nn::Sequential())),
      classifier(register_module("classifier", torch::nn::Linear(64, classes))) {
    if (depth < 8 || (depth - 2) % 6 != 0)
        throw std::invalid_argument("a CIFAR ResNet has 6n + 2 layers (8, 20, 32, 44, 56, 110), not " +
                                    std::to_string(depth));
    const int64_t blocks_per_stage = (depth - 2) / 6;
    int64_t channels = 16;
    for (int64_t width : {16, 32, 64}) {
        for (int64_t b = 0; b < blocks_per_stage; ++b) {
            const int64_t stride = (b == 0 && width != 16) ? 2 : 1;
            stages->push_back(BasicBlock(channels, width, stride));
            channels = width;
        }
    }
    for (auto& m : modules(/*include_self=*/false)) {
        if (auto* conv = m->as<torch::nn::Conv2d>())
            torch::nn::init::kaiming_normal_(conv->weight, 0.0, torch::kFanOut, torch::kReLU);
    }
}

torch::Tensor CifarResNetImpl::forward(const torch::Tensor& x) {
    torch::Tensor out = stem_bn(stem(x)).relu_();             // (B, 16, H, W)
    out = stages->forward(out);                               // (B, 64, H/4, W/4)
    out = torch::adaptive_avg_pool2d(out, {1, 1}).flatten(1); // (B, 64)
    return classifier(out);                                   // (B, classes)
}

void useChannelsLast(torch::nn::Module& model) {
    torch::NoGradGuard no_grad;
    for (auto& p : model.parameters())
        if (p.dim() == 4) p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
}

} // namespace scalebench
