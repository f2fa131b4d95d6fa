// Model FLOPs of a decoder-only transformer by the MaxText Llama-2 recipe's formula (seed 003), for MFU; and
// the Llama-2 shapes the llama workload's presets use. No LibTorch, so it is tested on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalebench {

// The shape of a Llama-style decoder (the numbers the FLOPs formula needs).
struct DecoderShape {
    int64_t layers = 0;
    int64_t hidden = 0;
    int64_t heads = 0;    // attention (query) heads
    int64_t kv_heads = 0; // key/value heads ("query groups"); = heads without grouped-query attention
    int64_t ffn = 0;      // SwiGLU inner size
    int64_t vocab = 0;
};

// The llama workload's presets: "tiny" (tests), "small" (a few M parameters, CPU runs), "1b" (one GPU), and
// Llama-2's "7b", "13b", "70b". Throws std::invalid_argument naming the preset and the known ones.
DecoderShape llamaPresetShape(const std::string& preset);
std::vector<std::string> llamaPresetNames();

// Training (forward + backward) model FLOPs of ONE sequence of seq_len tokens, as MaxText's Llama-2 70B
// recipe (seed 003) states them:
//   model flops = seq_len x (attention + mlp + normalization + embedding)
//   attention   = 12 x layers x hidden^2 x (1 + kv_heads / heads + seq_len / hidden)
//   mlp         = 18 x layers x ffn x hidden
//   embedding   = 6 x vocab x hidden
// normalization: named in the recipe's sum but given no formula, and left out of its 70B computation: 0 here.
// The attention term counts the whole seq_len x seq_len score matrix: causal masking is NOT halved.
// Llama-2 70B at 4096 tokens: 1.82e15 (the recipe's "model flops for GBS=1").
double maxtextTrainingFlopsPerSequence(const DecoderShape& shape, int64_t seq_len);

// The same counting for a BERT encoder (its GELU MLP has two matrices, not SwiGLU's three: 12 x layers x ffn
// x hidden; keys and values have every head; the tied MLM decoder is counted as the embedding term; the MLM
// head's transform, 6 x hidden^2, is left out like the norms):
//   seq_len x (12 L h^2 (2 + seq_len / h) + 12 L ffn h + 6 V h)
double encoderTrainingFlopsPerSequence(int64_t layers, int64_t hidden, int64_t ffn, int64_t vocab,
                                       int64_t seq_len);

} // namespace scalebench
