// Specification of the performance model's stated inputs (`scalebench project FILE.toml`): what a file must
// say, and the seeds' files (bench/seeds) giving fixed predictions.
#include "model_inputs_file.h"
#include "run_plan.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

const std::string minimal = R"(name = "two nodes"
batch_per_rank = 32
ranks_per_node = 8
gradient_bytes = 1e8
buckets = 4
hidden_fraction = 0.25
[[measured]]
ranks = 8
step_s = 0.2
[intra_node]
alpha_us = 2
busbw_gb_s = 400
[inter_node]
alpha_us = 5
busbw_gb_s = 100
)";

std::string problem(const std::string& text) {
    try {
        parseStatedModelText(text, "stated.toml");
    } catch (const PlanError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("a stated measured point splits its step into compute and the links' exposed all-reduce",
          "[core][model][stated]") {
    const StatedModel m = parseStatedModelText(minimal, "stated.toml");
    CHECK(m.name == "two nodes");
    const ModelInputs& in = m.inputs;
    CHECK(in.bucket_bytes == std::vector<double>(4, 2.5e7));
    REQUIRE(in.stated_intra);
    CHECK(in.stated_intra->busbw_bytes_s == 400e9);
    REQUIRE(in.stated_inter);
    CHECK(in.stated_inter->alpha_s == Approx(5e-6));
    REQUIRE(in.measured.size() == 1);
    // 8 ranks on one node: 4 x (2 x 3 x 2 us + 2 x 7 / 8 x 25 MB / 400 GB/s), three quarters of it exposed.
    const double comm = 4 * (2 * 3 * 2e-6 + 1.75 * 2.5e7 / 400e9);
    CHECK(in.measured[0].exposed_s.mean == Approx(0.75 * comm));
    CHECK(in.measured[0].compute_s.mean == Approx(0.2 - 0.75 * comm));
    CHECK(in.measured[0].samples_per_s.mean == Approx(8 * 32 / 0.2));

    // At 16 ranks the step crosses a node: the inter-node link's figures.
    const Projection p = project(in, {16}).front();
    CHECK(p.comm_s == Approx(4 * (2 * 4 * 5e-6 + 2 * 15.0 / 16 * 2.5e7 / 100e9)));
    CHECK(p.step_s == Approx(in.measured[0].compute_s.mean + 0.75 * p.comm_s));
}

TEST_CASE("a stated inputs file names what it lacks or gets wrong by line and key", "[core][model][stated]") {
    auto without = [](const std::string& line) {
        std::string text = minimal;
        text.erase(text.find(line), line.size() + 1);
        return text;
    };
    CHECK_THAT(problem(without("[intra_node]\nalpha_us = 2\nbusbw_gb_s = 400")),
               Catch::Contains("[intra_node]"));
    CHECK_THAT(problem(without("gradient_bytes = 1e8")), Catch::Contains("gradient_bytes"));
    CHECK_THAT(problem(without("step_s = 0.2")), Catch::Contains("'step_s'"));
    CHECK_THAT(problem("scaling = \"strong\"\n" + minimal), Catch::Contains("not 'strong'"));
    CHECK_THAT(problem("hidden_fraction = 1.5\n" + without("hidden_fraction = 0.25")),
               Catch::Contains("stated.toml:1") && Catch::Contains("from 0 to 1"));
    CHECK_THAT(problem("scaling = \"fixed-global-batch\"\n" + minimal),
               Catch::Contains("needs 'global_batch'"));
    CHECK_THAT(problem("bucket = 3\n" + minimal), Catch::Contains("bucket"));
    // A step shorter than the all-reduce the links give: the figures contradict each other.
    const std::string slow = "gradient_bytes = 1e12\n" + without("gradient_bytes = 1e8");
    CHECK_THAT(problem(slow), Catch::Contains("shorter than the stated links' exposed all-reduce"));
}

TEST_CASE("the seeds' stated inputs give fixed predictions (bench/seeds-validation.sh compares them)",
          "[core][model][stated]") {
    const std::filesystem::path seeds = std::filesystem::path(SCALEBENCH_SOURCE_DIR) / "bench" / "seeds";

    SECTION("seed 000: MLPerf BERT from 8 GPUs at a global batch of 384 to 64 GPUs at 2304") {
        const ModelInputs in = parseStatedModelFile(seeds / "000-mlperf-bert-8-to-64.toml").inputs;
        const auto rows = project(in, {8, 64});
        CHECK(rows[1].compute_s == Approx((0.133 - rows[0].comm_s) * 36 / 48));
        CHECK(rows[1].speedup == Approx(7.78).epsilon(2e-3)); // Lambda (seed 000): ~6x in time to train
        CHECK(rows[1].efficiency == Approx(0.973).epsilon(2e-3));
    }
    SECTION("seed 003: MaxText Llama 2 70B BF16 from 64 GPUs to 2048") {
        const ModelInputs in = parseStatedModelFile(seeds / "003-maxtext-llama2-70b-bf16.toml").inputs;
        const auto rows = project(in, {64, 2048});
        CHECK(rows[0].step_s == Approx(6.999));
        CHECK(rows[1].step_s == Approx(7.009).epsilon(1e-3)); // the MaxText recipe (seed 003): 7.066
        CHECK(rows[1].tokens_per_s == Approx(2048 * 2 * 4096 / rows[1].step_s));
        CHECK(rows[1].days_to_1t_tokens == Approx(4.84).epsilon(2e-3)); // the MaxText recipe (seed 003): 4.87
    }
}
