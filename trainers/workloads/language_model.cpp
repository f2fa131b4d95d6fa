// MLBench task 3: AWD-LSTM on WikiText-2 or synthetic text, switched to averaged SGD when the validation loss
// stalls; validation perplexity.
#include "language_model.h"

#include "gradient_clipping.h"
#include "word_corpus.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// MLBench task 3 (and AWD-LSTM's WikiText-2 command line).
constexpr int64_t kBptt = 70;              // backpropagation through time
constexpr int64_t kMinSeqLen = 5;          // AWD-LSTM's floor on the sampled length
constexpr double kSeqLenStd = 5;           // Normal(bptt / (1 + X), 5)
constexpr double kHalfBpttChance = 0.05;   // X ~ Bernoulli(0.05)
constexpr int64_t kValidationSeqLen = 10;  // validation sequence length
constexpr int64_t kValidationColumns = 10; // AWD-LSTM's eval_batch_size
constexpr double kWeightDecay = 1.2e-6;
constexpr double kClipNorm = 0.25;
constexpr double kAlpha = 2; // activation regularisation
constexpr double kBeta = 1;  // temporal activation regularisation
constexpr int64_t kSyntheticVocabulary = 64;
// MLBench task 3 (seed 004): "If Perplexity stops improving for 5 epochs, optimizer is switched to Averaged
// SGD" (AWD-LSTM's and MLBench's reference code: nonmono = 5).
constexpr std::size_t kNonmono = 5;

struct Corpus {
    torch::Tensor train, held_out; // this rank's token streams (N)
    int64_t vocabulary = 0;
};

Corpus loadCorpus(const EngineOptions& o, const World& w, int64_t bptt) {
    if (o.dataset == "wikitext2") {
        const std::filesystem::path dir(o.data_dir);
        const auto vocabulary = CorpusVocabulary::fromFile(dir / "wiki.train.tokens");
        return {contiguousShard(readTokens(dir / "wiki.train.tokens", vocabulary), w.rank, w.ranks),
                contiguousShard(readTokens(dir / "wiki.valid.tokens", vocabulary), w.rank, w.ranks),
                vocabulary.size()};
    }
    if (o.dataset == "synthetic-text") {
        // 20 sequences of bptt a column for training; the validation text is another walk on the same chain.
        const auto seed = static_cast<uint64_t>(o.seed) * 7919 + static_cast<uint64_t>(w.rank);
        const int64_t held_out = std::max<int64_t>(2 * kValidationColumns, int64_t(syntheticHeldOut(o)) *
                                                                               kValidationSeqLen / w.ranks);
        return {markovText(20 * bptt * o.batch_per_rank + 1, kSyntheticVocabulary, 2 * seed),
                markovText(held_out, kSyntheticVocabulary, 2 * seed + 1), kSyntheticVocabulary};
    }
    throw std::invalid_argument("--dataset: " + o.workload + " has no dataset '" + o.dataset +
                                "' (known: wikitext2, synthetic-text)");
}

// --preset: "awd" (default) is AWD-LSTM's WikiText-2 model; the smaller ones keep its code for quick runs.
AwdLstmOptions presetOptions(const std::string& preset, int64_t vocabulary) {
    AwdLstmOptions m;
    m.vocabulary = vocabulary;
    if (preset.empty() || preset == "awd") return m;
    if (preset == "small") {
        m.embedding = 128, m.hidden = 256, m.layers = 2;
        return m;
    }
    if (preset == "tiny") { // for tests: AWD's dropouts would drown a 16-wide model
        m.embedding = 16, m.hidden = 32, m.layers = 2;
        m.dropout = m.dropout_hidden = m.dropout_input = m.weight_drop = 0.1, m.dropout_embedding = 0;
        return m;
    }
    throw std::invalid_argument("--preset: lstm-lm has no preset '" + preset + "' (known: awd, small, tiny)");
}

// The state carried into the next batch, cut from the graph, on the device of the batch's tokens (the state
// made at start is on the CPU, before the loop moves the model).
LstmState detached(const LstmState& state, const torch::Device& device) {
    LstmState out;
    for (const auto& [h, c] : state)
        out.emplace_back(h.detach().to(device), c.detach().to(device));
    return out;
}

} // namespace

LanguageModel::LanguageModel(const EngineOptions& options, const World& world)
    : options_(options), world_(world), bptt_(options.seq_len > 0 ? options.seq_len : kBptt) {
    Corpus corpus = loadCorpus(options, world, bptt_);
    vocabulary_ = corpus.vocabulary;
    train_ = batchify(corpus.train, options.batch_per_rank, "training text");
    // --eval-samples sequences of the validation length, or with 0 the whole validation text (MLBench task 3
    // (seed 004): "Time to Perplexity of 70 on validation set", validation sequence length 10).
    const int64_t eval_tokens =
        options.eval_samples > 0
            ? std::max<int64_t>(2 * kValidationColumns,
                                int64_t(options.eval_samples) * kValidationSeqLen / world.ranks)
            : corpus.held_out.size(0);
    held_out_ = batchify(corpus.held_out.narrow(0, 0, std::min(eval_tokens, corpus.held_out.size(0))),
                         kValidationColumns, "validation text");
    model_ = AwdLstm(presetOptions(options.preset, vocabulary_));
    state_ = model_->initialState(options.batch_per_rank);
    const int64_t batches_per_epoch = std::max<int64_t>(1, (train_.size(0) - 1) / bptt_);
    // MLBench task 3: warm-up over ranks x 3 epochs to lr x sqrt(ranks).
    warmup_steps_ = options.warmup_steps >= 0 ? options.warmup_steps : world.ranks * 3 * batches_per_epoch;
}

std::unique_ptr<torch::optim::Optimizer> LanguageModel::makeOptimizer() {
    return std::make_unique<torch::optim::SGD>(
        model_->parameters(), torch::optim::SGDOptions(options_.lr).weight_decay(kWeightDecay));
}

int64_t LanguageModel::sequenceLength(int64_t step) const {
    std::mt19937_64 random(static_cast<uint64_t>(options_.seed) * 1000003 + static_cast<uint64_t>(step));
    const double mean = std::bernoulli_distribution(kHalfBpttChance)(random) ? bptt_ / 2.0 : double(bptt_);
    const double drawn = std::normal_distribution<double>(mean, kSeqLenStd)(random);
    return std::max<int64_t>(kMinSeqLen, static_cast<int64_t>(drawn));
}

Batch LanguageModel::nextBatch() {
    ++steps_;
    if (position_ >= train_.size(0) - 2) { // the epoch's tokens are spent: start over with a fresh state
        position_ = 0;
        ++epoch_;
        state_ = model_->initialState(options_.batch_per_rank);
    }
    const int64_t length = std::min(sequenceLength(steps_), train_.size(0) - 1 - position_);
    auto inputs = train_.narrow(0, position_, length);      // (T, B)
    auto targets = train_.narrow(0, position_ + 1, length); // (T, B): the next tokens
    position_ += length;
    return {{inputs, targets}, options_.batch_per_rank, length * options_.batch_per_rank};
}

// Cross-entropy of the next token + AR (alpha x mean square of the dropped output) + TAR (beta x mean square
// of the output's change between time steps), as AWD-LSTM trains.
torch::Tensor LanguageModel::forwardLoss(const Batch& batch) {
    auto out = model_->forward(batch.tensors[0], detached(state_, batch.tensors[0].device()));
    state_ = out.state;
    auto loss = torch::cross_entropy_loss(out.logits.view({-1, vocabulary_}), batch.tensors[1].reshape({-1}));
    loss = loss + kAlpha * out.last_dropped.pow(2).mean();
    if (out.last_output.size(0) > 1)
        loss = loss + kBeta * (out.last_output.narrow(0, 1, out.last_output.size(0) - 1) -
                               out.last_output.narrow(0, 0, out.last_output.size(0) - 1))
                                  .pow(2)
                                  .mean();
    return loss;
}

// On the averaged gradients, so every rank clips alike.
void LanguageModel::beforeOptimizerStep() {
    clipGradNorm(model_->parameters(), kClipNorm);
}

// From the switch to averaged SGD on, the running mean of the weights after every step (torch.optim.ASGD with
// t0 = 0 and lambd = 0, as AWD-LSTM and MLBench's reference switch to: its update is SGD's, and its "ax" this
// mean).
void LanguageModel::afterOptimizerStep() {
    if (!averaging_) return;
    torch::NoGradGuard no_grad;
    const auto parameters = model_->parameters();
    if (averages_.empty())
        for (const auto& p : parameters)
            averages_.push_back(torch::zeros_like(p));
    ++averaged_steps_;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        averages_[i].lerp_(parameters[i], 1.0 / static_cast<double>(averaged_steps_));
}

// The switch to averaged SGD, judged at the first evaluation after each epoch boundary, by AWD-LSTM's
// non-monotonic rule (main.py, and MLBench's reference): `len(val_losses) > nonmono and loss >
// min(val_losses[:-nonmono])`, i.e. the loss is above the best of all but the last 5 judged before it.
void LanguageModel::afterEvaluation(const Evaluation& evaluation) {
    if (averaging_) return;
    const int64_t completed = completedEpochs();
    if (completed <= judged_epoch_) return;
    judged_epoch_ = completed;
    const std::size_t judged = judged_losses_.size();
    if (judged > kNonmono &&
        evaluation.loss >
            *std::min_element(judged_losses_.begin(),
                              judged_losses_.begin() + static_cast<std::ptrdiff_t>(judged - kNonmono)))
        averaging_ = true;
    judged_losses_.push_back(evaluation.loss);
}

int64_t LanguageModel::trainingSamples() const {
    const int64_t sequences_a_column = std::max<int64_t>(1, (train_.size(0) - 1) / bptt_);
    return sequences_a_column * options_.batch_per_rank * world_.ranks;
}

int64_t LanguageModel::completedEpochs() const {
    return epoch_ + (position_ >= train_.size(0) - 2 ? 1 : 0); // nextBatch starts the next pass there
}

// eta x seq_len / bptt (MLBench task 3), eta warmed up linearly from lr to lr x sqrt(ranks).
double LanguageModel::learningRate(int64_t step) const {
    const double peak = options_.lr * std::sqrt(static_cast<double>(world_.ranks));
    const double eta = warmup_steps_ <= 0 || step >= warmup_steps_
                           ? peak
                           : options_.lr + (peak - options_.lr) * static_cast<double>(step) /
                                               static_cast<double>(warmup_steps_);
    return eta * static_cast<double>(sequenceLength(step)) / static_cast<double>(bptt_);
}

// Perplexity = exp(mean cross-entropy) over every rank's share of the validation tokens, read in sequences
// of 10 over 10 columns with the state carried along (AWD-LSTM's evaluate); after the switch to averaged SGD,
// with the averaged weights (the trained ones put back after).
Evaluation LanguageModel::evaluate() {
    torch::NoGradGuard no_grad;
    const auto parameters = model_->parameters();
    std::vector<torch::Tensor> trained;
    for (std::size_t i = 0; i < averages_.size(); ++i) {
        trained.push_back(parameters[i].clone());
        parameters[i].copy_(averages_[i]);
    }
    model_->eval();
    auto state = model_->initialState(kValidationColumns);
    double sums[2] = {0, 0}; // cross-entropy summed over tokens, tokens
    const auto held_out = held_out_.to(deviceOf(*model_));
    for (int64_t i = 0; i + 1 < held_out.size(0); i += kValidationSeqLen) {
        const int64_t length = std::min(kValidationSeqLen, held_out.size(0) - 1 - i);
        auto out = model_->forward(held_out.narrow(0, i, length), state);
        state = out.state;
        const auto targets = held_out.narrow(0, i + 1, length).reshape({-1});
        sums[0] +=
            torch::cross_entropy_loss(out.logits.view({-1, vocabulary_}), targets, {}, at::Reduction::Sum)
                .item<double>();
        sums[1] += static_cast<double>(targets.size(0));
    }
    sumAcrossRanks(sums);
    model_->train();
    for (std::size_t i = 0; i < trained.size(); ++i)
        parameters[i].copy_(trained[i]);
    const double loss = sums[0] / sums[1];
    return {std::exp(loss), loss, {{"asgd", averaging_}, {"averaged_weights", !averages_.empty()}}};
}

// 6 x tokens x weights each token multiplies (LSTM gates and the decoder; the embedding is a lookup), at
// the mean sequence length bptt.
double LanguageModel::trainingFlopsPerStep() const {
    double weights = 0;
    for (int64_t l = 0; l < model_->options().layers; ++l) {
        const double in = l == 0 ? double(model_->options().embedding) : double(model_->options().hidden);
        const double width = double(model_->layerWidth(l));
        weights += 4 * width * (in + width);
    }
    weights += double(model_->layerWidth(model_->options().layers - 1)) * double(vocabulary_);
    return 6.0 * weights * double(bptt_) * double(options_.batch_per_rank);
}

nlohmann::json LanguageModel::hyperparameters() const {
    const auto& m = model_->options();
    return withRunHyperparameters(
        options_, world_,
        {{"bptt", bptt_},
         {"peak_lr", options_.lr * std::sqrt(static_cast<double>(world_.ranks))},
         {"lr_rule", "eta x seq_len / bptt, eta warmed up linearly to lr x sqrt(ranks)"},
         {"warmup_steps", warmup_steps_},
         {"optimizer",
          "SGD momentum 0 weight_decay 1.2e-6; averaged (ASGD) once the validation loss is above "
          "the best of all but the last nonmono epochs' evaluations"},
         {"nonmono", kNonmono},
         {"clip_grad_norm", kClipNorm},
         {"ar_alpha", kAlpha},
         {"tar_beta", kBeta},
         {"embedding", m.embedding},
         {"hidden", m.hidden},
         {"layers", m.layers},
         {"tied", m.tied},
         {"dropout", m.dropout},
         {"dropout_hidden", m.dropout_hidden},
         {"dropout_input", m.dropout_input},
         {"dropout_embedding", m.dropout_embedding},
         {"weight_drop", m.weight_drop}});
}

nlohmann::json LanguageModel::headerFields() const {
    return {{"vocabulary", vocabulary_},
            {"seq_len_rule", "max(5, Normal(bptt / (1 + X), 5)), X ~ Bernoulli(0.05)"},
            {"validation_seq_len", kValidationSeqLen},
            {"validation_tokens_per_rank", held_out_.numel()},
            {"preset", options_.preset.empty() ? "awd" : options_.preset}};
}

void LanguageModel::saveState(torch::serialize::OutputArchive& archive) const {
    archive.write("lm_position", torch::tensor({position_, epoch_, steps_}, torch::kInt64));
    for (std::size_t l = 0; l < state_.size(); ++l) {
        archive.write("lm_h" + std::to_string(l), std::get<0>(state_[l]).detach());
        archive.write("lm_c" + std::to_string(l), std::get<1>(state_[l]).detach());
    }
    // Averaged SGD: the switch, its steps, the judged epoch, the losses judged, the averages.
    archive.write("lm_asgd", torch::tensor({int64_t(averaging_), averaged_steps_, judged_epoch_,
                                            static_cast<int64_t>(averages_.size())},
                                           torch::kInt64));
    archive.write("lm_judged_losses", torch::tensor(judged_losses_, torch::kFloat64));
    for (std::size_t i = 0; i < averages_.size(); ++i)
        archive.write("lm_average" + std::to_string(i), averages_[i]);
}

void LanguageModel::loadState(torch::serialize::InputArchive& archive) {
    torch::Tensor position;
    archive.read("lm_position", position);
    position_ = position[0].item<int64_t>(), epoch_ = position[1].item<int64_t>(),
    steps_ = position[2].item<int64_t>();
    for (std::size_t l = 0; l < state_.size(); ++l) {
        archive.read("lm_h" + std::to_string(l), std::get<0>(state_[l]));
        archive.read("lm_c" + std::to_string(l), std::get<1>(state_[l]));
    }
    torch::Tensor asgd, losses;
    archive.read("lm_asgd", asgd);
    archive.read("lm_judged_losses", losses);
    averaging_ = asgd[0].item<int64_t>() != 0;
    averaged_steps_ = asgd[1].item<int64_t>();
    judged_epoch_ = asgd[2].item<int64_t>();
    judged_losses_.clear();
    for (int64_t i = 0; i < losses.numel(); ++i)
        judged_losses_.push_back(losses[i].item<double>());
    averages_.clear();
    const torch::Device device = deviceOf(*model_);
    for (int64_t i = 0; i < asgd[3].item<int64_t>(); ++i) {
        torch::Tensor average;
        archive.read("lm_average" + std::to_string(i), average);
        averages_.push_back(average.to(device));
    }
}

} // namespace scalebench
