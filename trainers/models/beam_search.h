// Beam search for the translation models' evaluation (MLBench task 4's reference decodes with beams: GNMT 5,
// the Transformer 4): the k best prefixes of each sentence by summed log-probability, finished ones kept in
// the beam, the best by length-normalised score at the end.
#pragma once

#include <functional>
#include <torch/types.h>

namespace scalebench {

// How a finished hypothesis's log-probability is normalised by its length L (tokens, </s> included).
enum class LengthPenalty {
    gnmt,   // Wu et al. 2016 (MLPerf's GNMT, len_norm_const 5): score / ((5 + L) / 6)^alpha
    fairseq // fairseq's normalize_scores: score / L^alpha
};

struct BeamOptions {
    int64_t beam = 4;
    int64_t max_length = 0; // tokens after <s>, </s> included
    int64_t min_length = 0; // tokens before </s> may end a hypothesis (fairseq's minlen)
    int64_t bos = 2, eos = 3;
    double alpha = 0.6; // both references' length penalty exponent
    LengthPenalty penalty = LengthPenalty::fairseq;
};

// The model's next-token scores: prefixes (N, t) of <s> and the tokens chosen so far, one row a beam (N =
// sentences x beam, a sentence's beams adjacent), and `reorder` (N): the row of the previous step each row
// continues (a model with a recurrent state reorders it by this; arange(N) at the first step) -> logits (N,
// V).
using NextTokenLogits =
    std::function<torch::Tensor(const torch::Tensor& prefixes, const torch::Tensor& reorder)>;

// (sentences, <= max_length) token ids of each sentence's best hypothesis, without <s>, ending with </s> or
// at max_length, padded with </s>. Runs on the device of `like`.
torch::Tensor beamSearch(int64_t sentences, const BeamOptions& options, const NextTokenLogits& next,
                         const torch::Tensor& like);

} // namespace scalebench
