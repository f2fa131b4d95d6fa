// Corpus BLEU (Papineni et al. 2002) on token ids or words: clipped n-gram matches for n = 1..4 and the
// brevity penalty, summed over sentences first so that ranks can add their counts before the score is taken
// (sacrebleu's and multi-bleu.perl's corpus BLEU); and the words BLEU is taken on as MLBench scores its
// translations (BPE merged, lowercased, sacrebleu's "intl" tokenisation). No LibTorch.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace scalebench {

// Sufficient statistics of corpus BLEU; sums of sentences (and of ranks) are sums of these.
struct BleuCounts {
    static constexpr int kOrder = 4;
    // [0, 4): clipped matches of n = 1..4; [4, 8): hypothesis n-grams; [8]: hypothesis length;
    // [9]: reference length (the closest reference's, shorter on a tie).
    std::array<double, 2 * kOrder + 2> values{};

    // Adds one hypothesis and its references (any number, at least one).
    void add(const std::vector<int64_t>& hypothesis, const std::vector<std::vector<int64_t>>& references);
    void add(const std::vector<int64_t>& hypothesis, const std::vector<int64_t>& reference) {
        add(hypothesis, std::vector<std::vector<int64_t>>{reference});
    }
    // Words: compared as strings.
    void add(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference);
    BleuCounts& operator+=(const BleuCounts& other);
    std::span<double> data() { return values; }
};

enum class BleuSmoothing {
    none,       // multi-bleu.perl and NLTK's default: 0 as soon as one precision is 0
    exponential // sacrebleu's default ("exp"): the k-th zero precision counts as 1 / (2^k x n-grams)
};

// Corpus BLEU in [0, 100].
double corpusBleu(const BleuCounts& counts, BleuSmoothing smoothing = BleuSmoothing::exponential);

// The words MLBench's reference scores (seed 004 task 4; mlbench_core's BLEUScore: sacrebleu corpus_bleu with
// tokenize="intl", lowercase=True, on detokenised text) from a sentence's tokens as the data files hold them:
// subword-nmt's BPE pieces joined ("new@@ s" -> "news"), the Moses tokenizer's escapes and aggressive-hyphen
// splits undone ("&quot;" -> ", "@-@" -> "-"), lowercased (ASCII, Latin-1, Latin Extended-A, Greek and
// Cyrillic capitals), then split as sacrebleu's TokenizerV14International splits (mteval-v14's international
// tokenisation): a punctuation mark apart from its neighbours unless a number touches it on that side, every
// symbol apart. Punctuation, symbols and numbers are Unicode's P, S and N categories over Latin-1, General
// Punctuation, currency, letterlike, arrows, mathematical and technical symbols, CJK punctuation and
// fullwidth forms; other code points count as letters.
std::vector<std::string> bleuWords(const std::vector<std::string>& tokens);

} // namespace scalebench
