// The model-FLOPs formula of the MaxText Llama-2 recipe (seed 003) reproduces the recipe's own figures.
#include "engine_options.h"
#include "model_flops.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace scalebench;

TEST_CASE("Llama 2 70B at 4096 tokens has the recipe's 1.82e15 model FLOPs per sequence, term by term",
          "[engine]") {
    const DecoderShape s = llamaPresetShape("70b");
    // The recipe's terms: attention 104,689,827,840, mlp 338,228,674,560, embedding 1,572,864,000 per token.
    const double per_token = 104689827840.0 + 338228674560.0 + 1572864000.0;
    const double flops = maxtextTrainingFlopsPerSequence(s, 4096);
    CHECK(flops == 4096 * per_token); // exact: every term is an integer below 2^53
    CHECK(flops == 1820636636774400.0);
    CHECK(std::round(flops / 1e13) / 100 == 1.82); // "1.82E+15"
    // The recipe's MFU example: 128 x 1.82e15 / 7.908 s / 64 GPUs / 989e12 = 46.54%.
    const double mfu = 128 * 1.82e15 / 7.908 / 64 / 989e12;
    CHECK(std::round(mfu * 10000) / 100 == 46.54);
}

TEST_CASE("Llama 2 7B and 13B at 4096 tokens have 1.89e14 and 3.57e14 model FLOPs per sequence", "[engine]") {
    // 7B: attention 12 x 32 x 4096^2 x (1 + 1 + 1) = 19,327,352,832; mlp 18 x 32 x 11008 x 4096 =
    // 25,971,130,368; embedding 6 x 32000 x 4096 = 786,432,000.
    CHECK(maxtextTrainingFlopsPerSequence(llamaPresetShape("7b"), 4096) ==
          4096 * (19327352832.0 + 25971130368.0 + 786432000.0));
    CHECK(maxtextTrainingFlopsPerSequence(llamaPresetShape("7b"), 4096) == 188763812659200.0);
    // 13B: attention 12 x 40 x 5120^2 x (1 + 1 + 0.8) = 35,232,153,600; mlp 50,960,793,600; embedding
    // 983,040,000.
    CHECK(maxtextTrainingFlopsPerSequence(llamaPresetShape("13b"), 4096) == 357072843571200.0);
}

TEST_CASE("the 1b preset (22 layers of 2048, SwiGLU 5632) has 1.70e13 model FLOPs per sequence of 2048",
          "[engine]") {
    // attention 12 x 22 x 2048^2 x (1 + 1 + 1) = 3,321,888,768; mlp 18 x 22 x 5632 x 2048 = 4,567,597,056;
    // embedding 6 x 32000 x 2048 = 393,216,000 (per token).
    CHECK(maxtextTrainingFlopsPerSequence(llamaPresetShape("1b"), 2048) == 16962973335552.0);
}

TEST_CASE("model FLOPs grow with the sequence quadratically only through attention", "[engine]") {
    const DecoderShape s{1, 4, 2, 1, 8, 10};
    // per token: 12 x 16 x (1 + 0.5 + T/4) + 18 x 8 x 4 + 6 x 10 x 4
    CHECK(maxtextTrainingFlopsPerSequence(s, 4) == 4 * (12 * 16 * 2.5 + 576 + 240));
    CHECK(maxtextTrainingFlopsPerSequence(s, 8) == 8 * (12 * 16 * 3.5 + 576 + 240));
}

TEST_CASE("an unknown llama preset is refused with the known ones", "[engine]") {
    CHECK_THROWS_WITH(llamaPresetShape("8b"),
                      Catch::Contains("'8b'") && Catch::Contains("tiny, small, 1b, 7b"));
    CHECK(llamaPresetShape("13b").ffn == 13824);
}

TEST_CASE("BERT-large at 512 tokens has 12 L h^2 (2 + s/h) + 12 L ffn h + 6 V h model FLOPs a token",
          "[engine]") {
    // attention 12 x 24 x 1024^2 x 2.5 = 754,974,720; mlp 12 x 24 x 4096 x 1024 = 1,207,959,552; embedding
    // 6 x 30522 x 1024 = 187,527,168.
    CHECK(encoderTrainingFlopsPerSequence(24, 1024, 4096, 30522, 512) ==
          512 * (754974720.0 + 1207959552.0 + 187527168.0));
}

TEST_CASE("the engine takes a stated per-rank peak in TFLOP/s for MFU and refuses a negative one",
          "[engine]") {
    CHECK(parseEngineOptions({"--metrics", "m", "--peak-tflops", "989"}).peak_tflops == 989);
    CHECK(parseEngineOptions({"--metrics", "m"}).peak_tflops == 0);
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--peak-tflops", "-1"}),
                      Catch::Contains("--peak-tflops"));
}
