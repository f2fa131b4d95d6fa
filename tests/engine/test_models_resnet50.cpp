// ResNet-50 v1.5's forward pass equals PyTorch's from the same weights (tests/fixtures/make_resnet50.py), and
// its full-width shape is torchvision's.
#include "model_fixture.h"
#include "resnet50.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a narrow ResNet-50 computes PyTorch's logits from the same weights, in eval and in train mode",
          "[models]") {
    const ModelFixture fixture = loadModelFixture(SCALEBENCH_FIXTURES_DIR "/resnet50_w3.json");
    ResNet50 model(fixture.config["classes"], fixture.config["base_width"]);
    loadFixtureState(*model, fixture);
    const auto images = fixture.inputs.at("images");
    torch::NoGradGuard no_grad;

    model->eval();
    const auto eval_logits = model->forward(images);
    checkFixtureOutput(eval_logits, fixture, "eval_logits");

    model->train();
    const auto train_logits = model->forward(images);
    checkFixtureOutput(train_logits, fixture, "train_logits");
}

TEST_CASE("a full-width ResNet-50 has torchvision's 25.6 million parameters and 8.2 GFLOPs at 224 pixels",
          "[models]") {
    ResNet50 model(1000, 64);
    int64_t parameters = 0;
    for (const auto& p : model->parameters())
        parameters += p.numel();
    CHECK(parameters == 25557032); // sum(p.numel() for p in torchvision.models.resnet50().parameters())
    CHECK(model->layer1->size() == 3);
    CHECK(model->layer4->size() == 3);
    CHECK(model->named_parameters().contains("layer2.0.downsample.0.weight"));
    CHECK_FALSE(model->named_parameters().contains("layer2.1.downsample.0.weight"));
    // 4.09 GMACs: the figure torchvision and the ResNet v1.5 write-ups give.
    CHECK(resnet50ForwardFlops(224) == Approx(2 * 4.089e9).epsilon(0.01));
    const auto logits = model->forward(torch::randn({2, 3, 64, 64}));
    CHECK(logits.sizes() == torch::IntArrayRef({2, 1000}));
}
