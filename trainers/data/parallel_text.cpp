// Parallel text for translation: the shared vocabulary, a rank's shard of sentence pairs, padded batches, and
// the synthetic language pair.
#include "parallel_text.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

std::vector<std::string> tokens(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream words(line);
    for (std::string w; words >> w;)
        out.push_back(w);
    return out;
}

std::ifstream openText(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path.string() + ": cannot be read");
    return in;
}

int64_t lineCount(const std::filesystem::path& path) {
    std::ifstream in = openText(path);
    int64_t lines = 0;
    for (std::string line; std::getline(in, line);)
        ++lines;
    return lines;
}

} // namespace

Vocabulary::Vocabulary() {
    for (const char* special : {"<pad>", "<unk>", "<s>", "</s>"})
        add(special);
}

void Vocabulary::add(const std::string& word) {
    if (ids_.emplace(word, size()).second) words_.push_back(word);
}

int64_t Vocabulary::id(const std::string& word) const {
    const auto it = ids_.find(word);
    return it == ids_.end() ? kUnk : it->second;
}

Vocabulary Vocabulary::fromFiles(const std::vector<std::filesystem::path>& files) {
    std::map<std::string, int64_t> counts;
    for (const auto& path : files) {
        std::ifstream in = openText(path);
        for (std::string line; std::getline(in, line);)
            for (const auto& w : tokens(line))
                ++counts[w];
    }
    std::vector<std::pair<std::string, int64_t>> ranked(counts.begin(), counts.end()); // byte order
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    Vocabulary v;
    for (const auto& [word, count] : ranked)
        v.add(word);
    return v;
}

Vocabulary Vocabulary::synthetic(int64_t words) {
    Vocabulary v;
    for (int64_t i = 0; i < words; ++i) {
        std::string word = "w"; // not "w" + to_string: GCC 12's false -Wstringop-overflow
        word += std::to_string(i);
        v.add(word);
    }
    return v;
}

SentencePairs readParallelShard(const std::filesystem::path& source_path,
                                const std::filesystem::path& target_path, const Vocabulary& vocabulary,
                                int rank, int ranks, int64_t max_length, bool keep_target_text) {
    const int64_t source_lines = lineCount(source_path), target_lines = lineCount(target_path);
    if (source_lines != target_lines)
        throw std::runtime_error(source_path.string() + " has " + std::to_string(source_lines) +
                                 " lines but " + target_path.string() + " has " +
                                 std::to_string(target_lines) +
                                 ": the files must be sentence-aligned, one sentence a line");
    std::ifstream source = openText(source_path), target = openText(target_path);
    SentencePairs pairs;
    std::string source_line, target_line;
    for (int64_t i = 0; i < source_lines; ++i) {
        std::getline(source, source_line);
        std::getline(target, target_line);
        if (i % ranks != rank) continue;
        const auto source_words = tokens(source_line), target_words = tokens(target_line);
        if (source_words.empty() || target_words.empty()) continue;
        if (max_length > 0 && (static_cast<int64_t>(source_words.size()) > max_length ||
                               static_cast<int64_t>(target_words.size()) > max_length))
            continue;
        std::vector<int64_t> s, t;
        for (const auto& w : source_words)
            s.push_back(vocabulary.id(w));
        for (const auto& w : target_words)
            t.push_back(vocabulary.id(w));
        pairs.sources.push_back(std::move(s));
        pairs.targets.push_back(std::move(t));
        if (keep_target_text) pairs.target_text.push_back(target_words);
    }
    return pairs;
}

SentencePairs syntheticParallel(const Vocabulary& vocabulary, int64_t pairs, int64_t min_length,
                                int64_t max_length, uint64_t seed) {
    const int64_t first = Vocabulary::kEos + 1, words = vocabulary.size() - first;
    if (words < 1) throw std::invalid_argument("synthetic parallel text needs at least one word");
    std::vector<int64_t> permutation(static_cast<std::size_t>(words));
    std::iota(permutation.begin(), permutation.end(), first);
    std::mt19937_64 fixed(20170612); // the language pair itself: the same for every rank and seed
    std::shuffle(permutation.begin(), permutation.end(), fixed);

    std::mt19937_64 random(seed);
    std::uniform_int_distribution<int64_t> length(min_length, std::max(min_length, max_length));
    std::uniform_int_distribution<int64_t> word(0, words - 1);
    SentencePairs out;
    for (int64_t i = 0; i < pairs; ++i) {
        std::vector<int64_t> s(static_cast<std::size_t>(length(random))), t(s.size());
        for (std::size_t k = 0; k < s.size(); ++k) {
            const int64_t w = word(random);
            s[k] = first + w;
            t[k] = permutation[static_cast<std::size_t>(w)];
        }
        std::vector<std::string> text;
        for (const int64_t id : t)
            text.push_back(vocabulary.word(id));
        out.sources.push_back(s);
        out.targets.push_back(std::move(t));
        out.target_text.push_back(std::move(text));
    }
    return out;
}

ParallelBatch makeParallelBatch(const SentencePairs& pairs, const std::vector<int64_t>& indices) {
    const auto b = static_cast<int64_t>(indices.size());
    int64_t s_max = 0, t_max = 0;
    for (const int64_t i : indices) {
        s_max = std::max<int64_t>(
            s_max, static_cast<int64_t>(pairs.sources[static_cast<std::size_t>(i)].size()) + 1);
        t_max = std::max<int64_t>(
            t_max, static_cast<int64_t>(pairs.targets[static_cast<std::size_t>(i)].size()) + 1);
    }
    ParallelBatch batch;
    batch.source = torch::full({b, s_max}, Vocabulary::kPad, torch::kInt64);
    batch.source_lengths = torch::empty({b}, torch::kInt64);
    batch.target_in = torch::full({b, t_max}, Vocabulary::kPad, torch::kInt64);
    batch.target_out = torch::full({b, t_max}, Vocabulary::kPad, torch::kInt64);
    auto source = batch.source.accessor<int64_t, 2>();
    auto lengths = batch.source_lengths.accessor<int64_t, 1>();
    auto target_in = batch.target_in.accessor<int64_t, 2>();
    auto target_out = batch.target_out.accessor<int64_t, 2>();
    for (int64_t row = 0; row < b; ++row) {
        const auto& s = pairs.sources[static_cast<std::size_t>(indices[static_cast<std::size_t>(row)])];
        const auto& t = pairs.targets[static_cast<std::size_t>(indices[static_cast<std::size_t>(row)])];
        const auto sn = static_cast<int64_t>(s.size()), tn = static_cast<int64_t>(t.size());
        for (int64_t k = 0; k < sn; ++k)
            source[row][k] = s[static_cast<std::size_t>(k)];
        source[row][sn] = Vocabulary::kEos;
        lengths[row] = sn + 1;
        target_in[row][0] = Vocabulary::kBos;
        for (int64_t k = 0; k < tn; ++k) {
            target_in[row][k + 1] = t[static_cast<std::size_t>(k)];
            target_out[row][k] = t[static_cast<std::size_t>(k)];
        }
        target_out[row][tn] = Vocabulary::kEos;
        batch.target_tokens += tn + 1;
    }
    return batch;
}

PairSampler::PairSampler(SentencePairs pairs, int64_t batch, uint64_t seed)
    : pairs_(std::move(pairs)), batch_(batch), random_(seed) {
    if (pairs_.size() == 0) throw std::runtime_error("this rank's shard has no sentence pairs");
    order_.resize(static_cast<std::size_t>(pairs_.size()));
    std::iota(order_.begin(), order_.end(), 0);
    std::shuffle(order_.begin(), order_.end(), random_);
}

ParallelBatch PairSampler::next() {
    std::vector<int64_t> indices;
    while (static_cast<int64_t>(indices.size()) < batch_) {
        if (cursor_ == order_.size()) { // a pass is done: a new order
            std::shuffle(order_.begin(), order_.end(), random_);
            cursor_ = 0;
            ++epoch_;
        }
        indices.push_back(order_[cursor_++]);
    }
    return makeParallelBatch(pairs_, indices);
}

} // namespace scalebench
