// Word-level language-model text (WikiText-2's wiki.train.tokens / wiki.valid.tokens): a vocabulary from
// the training file, token streams with "<eos>" at every line's end (AWD-LSTM's data.py), one rank's
// contiguous shard, batchified into columns; and synthetic text from a small Markov chain.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <torch/types.h>
#include <unordered_map>
#include <vector>

namespace scalebench {

class CorpusVocabulary {
  public:
    // Every word of path in first-seen order, "<eos>" (index 0) and "<unk>" (for held-out words the
    // training file lacks). Throws std::runtime_error naming the file when it is missing or holds no word.
    static CorpusVocabulary fromFile(const std::filesystem::path& path);
    int64_t size() const { return static_cast<int64_t>(words_.size()); }
    int64_t indexOf(const std::string& word) const; // the index of "<unk>" for an unknown word
    const std::string& word(int64_t index) const { return words_.at(static_cast<std::size_t>(index)); }

  private:
    int64_t add(const std::string& word);
    std::unordered_map<std::string, int64_t> indices_;
    std::vector<std::string> words_;
};

// The tokens of path (each line's words, then "<eos>"), as indices of vocabulary: (N) int64.
torch::Tensor readTokens(const std::filesystem::path& path, const CorpusVocabulary& vocabulary);
// Rank's contiguous shard of tokens: [rank n / ranks, (rank + 1) n / ranks) with n / ranks tokens on every
// rank (the remainder left out, so every rank takes the same steps).
torch::Tensor contiguousShard(const torch::Tensor& tokens, int rank, int ranks);
// tokens (N) as columns: (N / columns, columns), column j holding the j-th contiguous part (AWD-LSTM's
// batchify; the remainder left out). Throws std::runtime_error when fewer than 2 rows result.
torch::Tensor batchify(const torch::Tensor& tokens, int64_t columns, const std::string& what);
// count tokens of a Markov chain over vocabulary words: each word is followed by one of 4 successors
// (fixed for every run) with probabilities 0.55, 0.25, 0.15, 0.05, so a model can learn ~1.1 nats a token
// where uniform guessing costs ln(vocabulary). The walk is drawn from seed.
torch::Tensor markovText(int64_t count, int64_t vocabulary, uint64_t seed);

} // namespace scalebench
