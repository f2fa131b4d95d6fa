// Parallel text for translation (MLBench task 4): sentence-aligned source and target files, one sentence a
// line, whitespace-tokenised (BPE'd text is read as its tokens); a vocabulary shared by both sides; this
// rank's shard of the sentence pairs; padded batches with lengths. And a learnable synthetic language pair.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <torch/types.h>
#include <unordered_map>
#include <vector>

namespace scalebench {

// Words to ids, the first four reserved. Built from the training files: by frequency (both sides together),
// ties in byte order, so that every rank builds the same one.
class Vocabulary {
  public:
    static constexpr int64_t kPad = 0, kUnk = 1, kBos = 2, kEos = 3;

    Vocabulary(); // the four special tokens only
    // Every word of the files.
    static Vocabulary fromFiles(const std::vector<std::filesystem::path>& files);
    // The special tokens and `words` synthetic words named w0, w1, ...
    static Vocabulary synthetic(int64_t words);

    int64_t size() const { return static_cast<int64_t>(words_.size()); }
    int64_t id(const std::string& word) const; // kUnk when unknown
    const std::string& word(int64_t id) const { return words_.at(static_cast<std::size_t>(id)); }

  private:
    void add(const std::string& word);
    std::vector<std::string> words_;
    std::unordered_map<std::string, int64_t> ids_;
};

// Sentence pairs as ids, without <s> or </s>.
struct SentencePairs {
    std::vector<std::vector<int64_t>> sources, targets;
    // The targets for BLEU as written (their tokens, BPE pieces included), so that a word outside the
    // vocabulary never matches a hypothesis's <unk>: held-out pairs only (readParallelShard's
    // keep_target_text), empty otherwise.
    std::vector<std::vector<std::string>> target_text;
    int64_t size() const { return static_cast<int64_t>(sources.size()); }
};

// This rank's shard (pairs i with i % ranks == rank) of source_path / target_path. Pairs with an empty side,
// or a side longer than max_length tokens (when max_length > 0), are left out (MLBench's length filter: seed
// 004's "trained on sentences of maximum length 75 tokens, and tested on sentences of max length 150").
// keep_target_text: the target sides' tokens as written too (SentencePairs::target_text, for BLEU). Throws
// std::runtime_error naming a file that cannot be read, and both files with their line counts when the counts
// differ.
SentencePairs readParallelShard(const std::filesystem::path& source_path,
                                const std::filesystem::path& target_path, const Vocabulary& vocabulary,
                                int rank, int ranks, int64_t max_length, bool keep_target_text = false);

// A learnable language pair: sources of uniformly random words (lengths min_length..max_length), targets the
// same words mapped through a fixed permutation of the vocabulary (the same on every rank and every seed);
// with their target_text.
SentencePairs syntheticParallel(const Vocabulary& vocabulary, int64_t pairs, int64_t min_length,
                                int64_t max_length, uint64_t seed);

// One padded batch. source: (B, S) = words + </s>, source_lengths: (B); target_in: (B, T) = <s> + words,
// target_out: (B, T) = words + </s>; S and T the longest in the batch, padding <pad>.
struct ParallelBatch {
    torch::Tensor source, source_lengths, target_in, target_out;
    int64_t target_tokens = 0; // not <pad> in target_out
};
ParallelBatch makeParallelBatch(const SentencePairs& pairs, const std::vector<int64_t>& indices);

// Random batches of a shard, a new order every pass (epoch).
class PairSampler {
  public:
    PairSampler(SentencePairs pairs, int64_t batch, uint64_t seed);
    ParallelBatch next();
    int64_t epoch() const { return epoch_; }
    const SentencePairs& pairs() const { return pairs_; }

  private:
    SentencePairs pairs_;
    int64_t batch_;
    std::mt19937_64 random_;
    std::vector<int64_t> order_;
    std::size_t cursor_ = 0;
    int64_t epoch_ = 0;
};

} // namespace scalebench
