// Checkpoint formats: a Llama checkpoint written before the fused projections (format 1: Meta's wq, wk, wv,
// w1, w3) is refused naming its format, and a format this engine does not know is named with the ones it
// reads. In this process at one rank.
#include "checkpoint.h"
#include "one_rank_mpi.h"
#include "temporary_folder.h"
#include "workload.h"

#include <catch2/catch.hpp>
#include <torch/torch.h>

using namespace scalebench;

namespace {

EngineOptions tinyLlama() {
    EngineOptions o;
    o.workload = "llama";
    o.dataset = "synthetic-tokens";
    o.preset = "tiny";
    o.seq_len = 16;
    o.batch_per_rank = 2;
    return o;
}

// DIR/checkpoint-1.pt as an engine writes it, with `format` and the parameters' names given: each tensor of
// `parameters` under those names (the rank files are not reached by the checks below).
void writeCheckpoint(const std::filesystem::path& dir, int64_t format, const std::vector<std::string>& names,
                     const std::vector<torch::Tensor>& parameters) {
    torch::serialize::OutputArchive shared;
    shared.write("format", c10::IValue(format));
    shared.write("step", c10::IValue(int64_t{1}));
    shared.write("ranks", c10::IValue(int64_t{1}));
    shared.write("precision", c10::IValue(std::string("fp32")));
    std::string joined;
    for (std::size_t i = 0; i < names.size(); ++i) {
        shared.write("parameters_" + std::to_string(i), parameters[i]);
        joined += names[i] + "\n"; // checkpoint.cpp's joinedNames
    }
    shared.write("parameters_names", c10::IValue(joined));
    shared.save_to((dir / "checkpoint-1.pt").string());
}

} // namespace

TEST_CASE("a Llama checkpoint of format 1 (Meta's separate projections) is refused naming its format",
          "[buckets]") {
    oneRankWorld();
    const auto workload = makeWorkload(tinyLlama(), World());
    const auto optimizer = workload->makeOptimizer();
    const TrainingState state{workload->module(), *optimizer, *workload, nullptr, "fp32"};
    TemporaryFolder folder;
    // Format 1's names: layer 0's wqkv as wq, wk, wv and w13 as w1, w3, as engines up to 7d9476d wrote them.
    std::vector<std::string> names;
    std::vector<torch::Tensor> tensors;
    for (const auto& p : workload->module().named_parameters()) {
        std::string name = p.key();
        if (const auto at = name.find("attention.wqkv"); at != std::string::npos)
            name.replace(at, 14, "attention.wq");
        if (const auto at = name.find("feed_forward.w13"); at != std::string::npos)
            name.replace(at, 16, "feed_forward.w1");
        names.push_back(name);
        tensors.push_back(p.value().detach());
    }
    writeCheckpoint(folder.path, 1, names, tensors);
    CHECK_THROWS_WITH(loadNewestCheckpoint(folder.path.string(), state, World()),
                      Catch::Contains("not this model's") && Catch::Contains("format 1") &&
                          Catch::Contains("wq, wk, wv, w1, w3"));

    writeCheckpoint(folder.path, 3, names, tensors);
    CHECK_THROWS_WITH(loadNewestCheckpoint(folder.path.string(), state, World()),
                      Catch::Contains("an unknown format (3; this engine reads formats 1 to 2)"));
}
