// Corpus BLEU on token ids, from summed n-gram statistics (sacrebleu's compute_bleu on tokenised text).
#include "bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace scalebench {
namespace {

using NGram = std::vector<int64_t>;

std::map<NGram, int64_t> nGramCounts(const std::vector<int64_t>& tokens, std::size_t n) {
    std::map<NGram, int64_t> counts;
    for (std::size_t i = 0; i + n <= tokens.size(); ++i)
        ++counts[NGram(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                       tokens.begin() + static_cast<std::ptrdiff_t>(i + n))];
    return counts;
}

} // namespace

void BleuCounts::add(const std::vector<int64_t>& hypothesis,
                     const std::vector<std::vector<int64_t>>& references) {
    if (references.empty()) throw std::invalid_argument("BLEU: a hypothesis without a reference");
    for (std::size_t n = 1; n <= kOrder; ++n) {
        // Each hypothesis n-gram counts at most as often as it occurs in any one reference (clipping).
        std::map<NGram, int64_t> most;
        for (const auto& reference : references)
            for (const auto& [gram, count] : nGramCounts(reference, n))
                most[gram] = std::max(most[gram], count);
        for (const auto& [gram, count] : nGramCounts(hypothesis, n)) {
            const auto it = most.find(gram);
            values[n - 1] += static_cast<double>(std::min(count, it == most.end() ? 0 : it->second));
            values[kOrder + n - 1] += static_cast<double>(count);
        }
    }
    // The reference length closest to the hypothesis's; the shorter one on a tie (sacrebleu, NLTK).
    const auto hyp = static_cast<int64_t>(hypothesis.size());
    int64_t closest = static_cast<int64_t>(references.front().size());
    for (const auto& reference : references) {
        const auto len = static_cast<int64_t>(reference.size());
        if (std::abs(len - hyp) < std::abs(closest - hyp) ||
            (std::abs(len - hyp) == std::abs(closest - hyp) && len < closest))
            closest = len;
    }
    values[2 * kOrder] += static_cast<double>(hyp);
    values[2 * kOrder + 1] += static_cast<double>(closest);
}

BleuCounts& BleuCounts::operator+=(const BleuCounts& other) {
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] += other.values[i];
    return *this;
}

double corpusBleu(const BleuCounts& counts, BleuSmoothing smoothing) {
    const auto& v = counts.values;
    const double hypothesis_length = v[2 * BleuCounts::kOrder],
                 reference_length = v[2 * BleuCounts::kOrder + 1];
    if (hypothesis_length <= 0) return 0;
    double log_precisions = 0, smooth = 1;
    for (int n = 0; n < BleuCounts::kOrder; ++n) {
        const double matches = v[n], total = v[BleuCounts::kOrder + n];
        if (total <= 0) return 0; // every hypothesis is shorter than n (sacrebleu: 0 without effective order)
        if (matches > 0) {
            log_precisions += std::log(matches / total);
        } else if (smoothing == BleuSmoothing::exponential) {
            smooth *= 2;
            log_precisions += std::log(1 / (smooth * total));
        } else {
            return 0;
        }
    }
    const double brevity =
        hypothesis_length < reference_length ? std::exp(1 - reference_length / hypothesis_length) : 1.0;
    return 100 * brevity * std::exp(log_precisions / BleuCounts::kOrder);
}

} // namespace scalebench
