// Model FLOPs by the MaxText Llama-2 recipe (seed 003) and the Llama-2 shapes.
#include "model_flops.h"

#include <stdexcept>
#include <utility>

namespace scalebench {
namespace {

const std::vector<std::pair<std::string, DecoderShape>>& presets() {
    // {layers, hidden, heads, kv_heads, ffn, vocab}; 7b/13b/70b: Llama 2 (Touvron et al. 2023, table 1 and
    // the released configs); 1b: a 1.26 B decoder of Llama's make that trains on one GPU (the
    // measurement against PyTorch).
    static const std::vector<std::pair<std::string, DecoderShape>> shapes = {
        {"tiny", {2, 32, 4, 2, 64, 64}},           {"small", {4, 256, 8, 4, 688, 1024}},
        {"1b", {22, 2048, 16, 16, 5632, 32000}},   {"7b", {32, 4096, 32, 32, 11008, 32000}},
        {"13b", {40, 5120, 40, 40, 13824, 32000}}, {"70b", {80, 8192, 64, 8, 28672, 32000}},
    };
    return shapes;
}

} // namespace

std::vector<std::string> llamaPresetNames() {
    std::vector<std::string> names;
    for (const auto& [name, shape] : presets())
        names.push_back(name);
    return names;
}

DecoderShape llamaPresetShape(const std::string& preset) {
    std::string known;
    for (const auto& [name, shape] : presets()) {
        if (name == preset) return shape;
        known += (known.empty() ? "" : ", ") + name;
    }
    throw std::invalid_argument("--preset: llama has no preset '" + preset + "' (known: " + known + ")");
}

double maxtextTrainingFlopsPerSequence(const DecoderShape& s, int64_t seq_len) {
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    const double attention = 12 * d(s.layers) * d(s.hidden) * d(s.hidden) *
                             (1 + d(s.kv_heads) / d(s.heads) + d(seq_len) / d(s.hidden));
    const double mlp = 18 * d(s.layers) * d(s.ffn) * d(s.hidden);
    const double normalization = 0; // named by the recipe, not counted in its computation
    const double embedding = 6 * d(s.vocab) * d(s.hidden);
    return d(seq_len) * (attention + mlp + normalization + embedding);
}

double encoderTrainingFlopsPerSequence(int64_t layers, int64_t hidden, int64_t ffn, int64_t vocab,
                                       int64_t seq_len) {
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    const double attention = 12 * d(layers) * d(hidden) * d(hidden) * (2 + d(seq_len) / d(hidden));
    const double mlp = 12 * d(layers) * d(ffn) * d(hidden);
    const double embedding = 6 * d(vocab) * d(hidden);
    return d(seq_len) * (attention + mlp + embedding);
}

} // namespace scalebench
