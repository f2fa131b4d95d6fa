// Beam search over a model's next-token logits: finished hypotheses stay in the beam with their score frozen,
// the length-normalised best wins at the end.
#include "beam_search.h"

#include <cmath>
#include <limits>
#include <torch/torch.h>

namespace scalebench {

torch::Tensor beamSearch(int64_t sentences, const BeamOptions& o, const NextTokenLogits& next,
                         const torch::Tensor& like) {
    const int64_t k = o.beam, n = sentences * k;
    const auto longs = like.options().dtype(torch::kInt64);
    const auto floats = like.options().dtype(torch::kFloat32);
    const double minus_infinity = -std::numeric_limits<double>::infinity();
    // At first a sentence's beams hold the same prefix <s>: only its first beam may expand.
    auto scores = torch::full({sentences, k}, minus_infinity, floats); // (S, K) summed log-probabilities
    scores.select(1, 0).zero_();
    scores = scores.view({n});
    auto prefixes = torch::full({n, 1}, o.bos, longs); // (N, t)
    auto finished = torch::zeros({n}, longs.dtype(torch::kBool));
    auto lengths = torch::zeros({n}, floats); // tokens after <s>, </s> included
    auto reorder = torch::arange(n, longs);
    const auto sentence_rows = (torch::arange(sentences, longs) * k).unsqueeze(1); // (S, 1)
    for (int64_t t = 0; t < o.max_length; ++t) {
        auto log_probabilities =
            torch::log_softmax(next(prefixes, reorder).to(torch::kFloat32), -1); // (N, V)
        const int64_t vocabulary = log_probabilities.size(1);
        if (t < o.min_length) log_probabilities.select(1, o.eos).fill_(minus_infinity);
        // A finished beam continues only with </s>, at no cost.
        auto frozen = torch::full_like(log_probabilities, minus_infinity);
        frozen.select(1, o.eos).zero_();
        log_probabilities = torch::where(finished.unsqueeze(1), frozen, log_probabilities);
        auto candidates = (scores.unsqueeze(1) + log_probabilities).view({sentences, k * vocabulary});
        auto [best, index] = candidates.topk(k, 1); // (S, K)
        reorder = (sentence_rows + index.div(vocabulary, "floor")).view({n});
        const auto tokens = index.remainder(vocabulary).view({n, 1});
        scores = best.view({n});
        lengths = lengths.index_select(0, reorder) + (~finished.index_select(0, reorder)).to(torch::kFloat32);
        finished = finished.index_select(0, reorder) | tokens.squeeze(1).eq(o.eos);
        prefixes = torch::cat({prefixes.index_select(0, reorder), tokens}, 1);
        if (finished.all().item<bool>()) break;
    }
    const auto penalty = o.penalty == LengthPenalty::gnmt ? ((lengths + 5.0) / 6.0).pow(o.alpha)
                                                          : lengths.clamp_min(1.0).pow(o.alpha);
    const auto chosen = (scores / penalty).view({sentences, k}).argmax(1) + sentence_rows.squeeze(1); // (S)
    return prefixes.index_select(0, chosen).narrow(1, 1, prefixes.size(1) - 1);
}

} // namespace scalebench
