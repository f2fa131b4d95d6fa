// Synthetic token sequences for the LLM workloads ("synthetic-tokens"): learnable, so that loss and accuracy
// can move, and generated on the fly (no files). MaxText's Llama-2 recipe (seed 003) trains on synthetic data
// for throughput only; its tokens' content does not change a step's cost, ours does not either.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <torch/types.h>
#include <vector>

namespace scalebench {

// A fixed Markov chain over the ids [first_id, vocab): each sequence starts at a uniformly random id; each
// next id is successor[previous] with probability 1 - noise, else uniformly random. successor is one random
// permutation fixed by vocab alone (the same on every rank, for training and held-out data). The best
// possible next-token accuracy is about 1 - noise; a random-token stream (noise = 1) is not learnable.
class SyntheticTokens {
  public:
    // period > 0: each sequence repeats its first period chain tokens (a phrase), the noise drawn anew at
    // every position; a masked token is then also told by the bag of its context (what a fresh encoder learns
    // first).
    SyntheticTokens(int64_t vocab, int64_t first_id, double noise, uint64_t seed, int64_t period = 0);
    // (sequences, length) int64 ids.
    torch::Tensor next(int64_t sequences, int64_t length);
    // The stream's position (checkpoints): reseeding with the same seed and skipping is not needed; the
    // generator's state is saved as text.
    std::string state() const;
    void setState(const std::string& state);

  private:
    int64_t vocab_, first_id_;
    double noise_;
    int64_t period_;
    std::vector<int64_t> successor_;
    std::mt19937_64 random_;
};

// BERT's masking of a batch (Devlin et al. 2019, 3.1): each position is chosen with probability 0.15 (at
// least one a batch); a chosen position becomes mask_id 80% of the time, a random id in [first_id, vocab)
// 10%, and stays 10%. labels: the original id where chosen, -100 (ignored) elsewhere.
struct MaskedTokens {
    torch::Tensor inputs, labels; // (B, T) int64
};
MaskedTokens maskForMlm(const torch::Tensor& tokens, int64_t vocab, int64_t first_id, int64_t mask_id,
                        std::mt19937_64& random);

} // namespace scalebench
