// The CIFAR ResNets' forward pass equals PyTorch's from the same weights (tests/fixtures/make_resnet.py).
#include "model_fixture.h"
#include "resnet.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a CIFAR ResNet computes PyTorch's logits from the same weights, in eval and in train mode",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/resnet8.json");
    CifarResNet model(fixture.config["in_channels"], fixture.config["classes"], fixture.config["depth"]);
    loadFixtureState(*model, fixture);
    const auto images = fixture.inputs.at("images");
    torch::NoGradGuard no_grad;

    model->eval();
    const auto eval_logits = model->forward(images);
    checkFixtureOutput(eval_logits, fixture, "eval_logits");

    // Channels-last weights and inputs (how the engine trains) give the same numbers.
    useChannelsLast(*model);
    const auto nhwc = model->forward(images.contiguous(torch::MemoryFormat::ChannelsLast));
    checkFixtureOutput(nhwc, fixture, "eval_logits");

    model->train();
    const auto train_logits = model->forward(images);
    checkFixtureOutput(train_logits, fixture, "train_logits");
}

TEST_CASE("a CIFAR ResNet's depth must be 6n + 2", "[models]") {
    CHECK_THROWS_WITH(CifarResNet(3, 10, 21), Catch::Contains("6n + 2") && Catch::Contains("21"));
    CHECK(CifarResNet(3, 10, 56)->stages->size() == 27);
}

TEST_CASE("a fixture whose tensors do not match the model is refused by name", "[models]") {
    ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/resnet8.json");
    CifarResNet deeper(3, 10, 20);
    CHECK_THROWS_WITH(loadFixtureState(*deeper, fixture), Catch::Contains("'stages."));
    fixture.state["stem.weight"] = torch::zeros({1});
    CifarResNet same(3, 10, 8);
    CHECK_THROWS_WITH(loadFixtureState(*same, fixture), Catch::Contains("'stem.weight' has another shape"));
}
