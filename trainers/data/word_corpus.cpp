// Word-level language-model text: vocabulary, token streams, shards, columns; synthetic Markov text.
#include "word_corpus.h"

#include <array>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

std::ifstream openText(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("text file " + path.string() + " cannot be read (missing?)");
    return in;
}

// Calls visit(word) for every word of every line, then visit("<eos>"); returns the number of lines.
template <typename Visit> int64_t forEachWord(const std::filesystem::path& path, Visit visit) {
    std::ifstream in = openText(path);
    std::string line, word;
    int64_t lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        if (line.find('\0') != std::string::npos)
            throw std::runtime_error("text file " + path.string() + ", line " + std::to_string(lines) +
                                     ": a NUL byte (binary data, not word-level text)");
        std::istringstream words(line);
        while (words >> word)
            visit(word);
        visit(std::string("<eos>"));
    }
    if (in.bad()) throw std::runtime_error("text file " + path.string() + ": read error");
    return lines;
}

} // namespace

CorpusVocabulary CorpusVocabulary::fromFile(const std::filesystem::path& path) {
    CorpusVocabulary v;
    v.add("<eos>");
    v.add("<unk>");
    int64_t words = 0;
    forEachWord(path, [&](const std::string& word) {
        words += word != "<eos>";
        v.add(word);
    });
    if (words == 0) throw std::runtime_error("text file " + path.string() + " holds no words");
    return v;
}

int64_t CorpusVocabulary::add(const std::string& word) {
    const auto [it, inserted] = indices_.emplace(word, size());
    if (inserted) words_.push_back(word);
    return it->second;
}

int64_t CorpusVocabulary::indexOf(const std::string& word) const {
    const auto it = indices_.find(word);
    return it != indices_.end() ? it->second : indices_.at("<unk>");
}

torch::Tensor readTokens(const std::filesystem::path& path, const CorpusVocabulary& vocabulary) {
    std::vector<int64_t> tokens;
    forEachWord(path, [&](const std::string& word) { tokens.push_back(vocabulary.indexOf(word)); });
    if (tokens.empty()) throw std::runtime_error("text file " + path.string() + " is empty");
    return torch::tensor(tokens, torch::kInt64);
}

torch::Tensor contiguousShard(const torch::Tensor& tokens, int rank, int ranks) {
    const int64_t each = tokens.size(0) / ranks;
    return tokens.narrow(0, rank * each, each);
}

torch::Tensor batchify(const torch::Tensor& tokens, int64_t columns, const std::string& what) {
    const int64_t rows = tokens.size(0) / columns;
    if (rows < 2)
        throw std::runtime_error(what + ": " + std::to_string(tokens.size(0)) + " tokens on this rank make " +
                                 std::to_string(rows) + " rows of " + std::to_string(columns) +
                                 " columns (at least 2 needed)");
    return tokens.narrow(0, 0, rows * columns).view({columns, rows}).t().contiguous(); // (rows, columns)
}

torch::Tensor markovText(int64_t count, int64_t vocabulary, uint64_t seed) {
    constexpr int kSuccessors = 4;
    std::mt19937_64 fixed(4242); // the chain: the same for every run
    std::uniform_int_distribution<int64_t> any(0, vocabulary - 1);
    std::vector<std::array<int64_t, kSuccessors>> successors(static_cast<std::size_t>(vocabulary));
    for (auto& s : successors)
        for (auto& next : s)
            next = any(fixed);
    std::mt19937_64 random(seed);
    std::discrete_distribution<int> pick({0.55, 0.25, 0.15, 0.05});
    auto tokens = torch::empty({count}, torch::kInt64);
    auto out = tokens.accessor<int64_t, 1>();
    int64_t word = any(random);
    for (int64_t i = 0; i < count; ++i) {
        out[i] = word;
        word = successors[static_cast<std::size_t>(word)][static_cast<std::size_t>(pick(random))];
    }
    return tokens;
}

} // namespace scalebench
