// A fixed random Markov chain of token ids, and BERT's 15% / 80-10-10 masking.
#include "synthetic_tokens.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {

SyntheticTokens::SyntheticTokens(int64_t vocab, int64_t first_id, double noise, uint64_t seed, int64_t period)
    : vocab_(vocab), first_id_(first_id), noise_(noise), period_(period), random_(seed) {
    if (vocab - first_id < 2)
        throw std::invalid_argument("synthetic-tokens: a vocabulary of " + std::to_string(vocab) +
                                    " ids from " + std::to_string(first_id) + " is too small");
    successor_.resize(static_cast<std::size_t>(vocab - first_id));
    for (std::size_t i = 0; i < successor_.size(); ++i)
        successor_[i] = first_id + static_cast<int64_t>(i);
    std::mt19937_64 chain(0x5eedc4a1u + static_cast<uint64_t>(vocab)); // the chain depends on vocab only
    std::shuffle(successor_.begin(), successor_.end(), chain);
}

torch::Tensor SyntheticTokens::next(int64_t sequences, int64_t length) {
    auto out = torch::empty({sequences, length}, torch::kInt64);
    int64_t* ids = out.data_ptr<int64_t>();
    std::uniform_int_distribution<int64_t> any(first_id_, vocab_ - 1);
    std::uniform_real_distribution<double> coin(0, 1);
    for (int64_t s = 0; s < sequences; ++s) {
        int64_t* row = ids + s * length;
        if (period_ > 0) { // the phrase: period chain tokens, then repeated, each position noisy
            std::vector<int64_t> phrase(static_cast<std::size_t>(period_));
            phrase[0] = any(random_);
            for (std::size_t i = 1; i < phrase.size(); ++i)
                phrase[i] = successor_[static_cast<std::size_t>(phrase[i - 1] - first_id_)];
            for (int64_t t = 0; t < length; ++t)
                row[t] =
                    coin(random_) < noise_ ? any(random_) : phrase[static_cast<std::size_t>(t % period_)];
            continue;
        }
        row[0] = any(random_);
        for (int64_t t = 1; t < length; ++t)
            row[t] = coin(random_) < noise_ ? any(random_)
                                            : successor_[static_cast<std::size_t>(row[t - 1] - first_id_)];
    }
    return out;
}

std::string SyntheticTokens::state() const {
    std::ostringstream out;
    out << random_;
    return out.str();
}

void SyntheticTokens::setState(const std::string& state) {
    std::istringstream in(state);
    in >> random_;
    if (!in) throw std::runtime_error("synthetic-tokens: a checkpoint's generator state cannot be read");
}

MaskedTokens maskForMlm(const torch::Tensor& tokens, int64_t vocab, int64_t first_id, int64_t mask_id,
                        std::mt19937_64& random) {
    auto inputs = tokens.clone().contiguous();
    auto labels = torch::full_like(inputs, -100);
    int64_t* in = inputs.data_ptr<int64_t>();
    int64_t* label = labels.data_ptr<int64_t>();
    std::uniform_real_distribution<double> coin(0, 1);
    std::uniform_int_distribution<int64_t> any(first_id, vocab - 1);
    const int64_t n = inputs.numel();
    int64_t chosen = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (coin(random) >= 0.15) continue;
        ++chosen;
        label[i] = in[i];
        const double r = coin(random);
        if (r < 0.8)
            in[i] = mask_id;
        else if (r < 0.9)
            in[i] = any(random);
    }
    if (chosen == 0 && n > 0) { // a loss over no positions is undefined
        label[0] = in[0];
        in[0] = mask_id;
    }
    return {inputs, labels};
}

} // namespace scalebench
