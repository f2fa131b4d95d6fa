// MLPerf-style BERT pre-training: masked-LM on synthetic tokens with LAMB; held-out masked-LM accuracy.
#include "bert_pretraining.h"

#include "gradient_clipping.h"
#include "lamb.h"
#include "model_flops.h"

#include <sstream>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// MLPerf Training's BERT reference: LAMB b1 0.9, b2 0.999, weight decay 0.01 (not on biases and LayerNorm),
// polynomial (power 1) decay to 0, gradient clipping 1.0 (NVIDIA's FusedLAMB max_grad_norm). Not in the
// seeds.
constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-6, kWeightDecay = 0.01, kClipNorm = 1.0;
// synthetic-tokens: ids 0-3 are [PAD] [CLS] [SEP] [MASK]; text uses 4 ... vocab-1, 10% of it random.
constexpr int64_t kMaskId = 3, kFirstWordId = 4;
constexpr double kNoise = 0.1;
constexpr int64_t kPhrase = 8; // tokens repeated through each sequence (synthetic_tokens.h)

std::string presetOf(const EngineOptions& o) {
    return o.preset.empty() ? "large" : o.preset;
}

} // namespace

BertPretraining::BertPretraining(const EngineOptions& o, const World& w)
    : options_(o), world_(w), preset_(presetOf(o)),
      seq_len_(o.seq_len > 0 ? o.seq_len : (preset_ == "tiny" ? 16 : 512)), model_(bertPresetShape(preset_)),
      train_tokens_(bertPresetShape(preset_).vocab, kFirstWordId, kNoise,
                    static_cast<uint64_t>(o.seed) * 7919 + static_cast<uint64_t>(w.rank), kPhrase),
      masking_(static_cast<uint64_t>(o.seed) * 104729 + static_cast<uint64_t>(w.rank)) {
    if (o.dataset != "synthetic-tokens")
        throw std::invalid_argument("--dataset: bert has no dataset '" + o.dataset +
                                    "' (known: synthetic-tokens)");
    if (seq_len_ > model_->shape().max_positions)
        throw std::invalid_argument("--seq-len: bert has " + std::to_string(model_->shape().max_positions) +
                                    " positions, not " + std::to_string(seq_len_));
    warmup_steps_ = o.warmup_steps >= 0 ? o.warmup_steps : 0; // MLPerf's reference: no warm-up
}

std::unique_ptr<torch::optim::Optimizer> BertPretraining::makeOptimizer() {
    // No weight decay on biases and LayerNorm weights (BERT's exclude_from_weight_decay).
    std::vector<torch::Tensor> decayed, other;
    for (const auto& p : model_->parameters())
        (p.dim() >= 2 ? decayed : other).push_back(p);
    const auto options = [&](double decay) {
        return std::make_unique<LambOptions>(
            LambOptions(options_.lr).betas({kBeta1, kBeta2}).eps(kEps).weight_decay(decay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decayed, options(kWeightDecay));
    groups.emplace_back(other, options(0));
    return std::make_unique<Lamb>(groups, *options(kWeightDecay));
}

Batch BertPretraining::nextBatch() {
    const auto tokens = train_tokens_.next(options_.batch_per_rank, seq_len_); // (B, T)
    auto masked = maskForMlm(tokens, model_->shape().vocab, kFirstWordId, kMaskId, masking_);
    return {{masked.inputs, masked.labels}, options_.batch_per_rank, options_.batch_per_rank * seq_len_};
}

torch::Tensor BertPretraining::forwardLoss(const Batch& batch) {
    const auto logits = model_->forward(batch.tensors[0]); // (B, T, V)
    return torch::nn::functional::cross_entropy(
        logits.reshape({-1, logits.size(-1)}), batch.tensors[1].reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
}

void BertPretraining::beforeOptimizerStep() {
    clipGradNorm(model_->parameters(), kClipNorm);
}

// Linear warm-up over --warmup-steps (default 0), then linear decay from --lr towards 0 at --steps.
double BertPretraining::learningRate(int64_t step) const {
    const double peak = options_.lr;
    if (step <= warmup_steps_) return peak * static_cast<double>(step) / static_cast<double>(warmup_steps_);
    const double span = std::max<double>(1, static_cast<double>(options_.steps - warmup_steps_));
    return peak * std::max(0.0, 1 - static_cast<double>(step - 1 - warmup_steps_) / span);
}

// Masked-LM accuracy (correct predictions / masked positions) and loss over ceil(eval_samples / ranks)
// held-out sequences a rank, the same sequences and masks at every evaluation.
Evaluation BertPretraining::evaluate() {
    torch::NoGradGuard no_grad;
    model_->eval();
    const uint64_t seed =
        static_cast<uint64_t>(options_.seed) * 7919 + 1000003 + static_cast<uint64_t>(world_.rank);
    SyntheticTokens held_out(model_->shape().vocab, kFirstWordId, kNoise, seed, kPhrase);
    std::mt19937_64 masking(seed + 1);
    const int64_t sequences = (options_.eval_samples + world_.ranks - 1) / world_.ranks;
    const torch::Device device = deviceOf(*model_);
    double sums[3] = {0, 0, 0}; // correct, loss x masked, masked
    for (int64_t done = 0; done < sequences; done += options_.batch_per_rank) {
        const int64_t n = std::min<int64_t>(options_.batch_per_rank, sequences - done);
        const auto masked =
            maskForMlm(held_out.next(n, seq_len_), model_->shape().vocab, kFirstWordId, kMaskId, masking);
        const auto inputs = masked.inputs.to(device), labels = masked.labels.to(device);
        const auto logits = model_->forward(inputs); // (n, T, V)
        const auto chosen = labels.ne(-100);
        const auto predicted = logits.argmax(-1);
        const double count = chosen.sum().item<double>();
        sums[0] += predicted.eq(labels).logical_and(chosen).sum().item<double>();
        sums[1] += torch::nn::functional::cross_entropy(
                       logits.reshape({-1, logits.size(-1)}), labels.reshape({-1}),
                       torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100))
                       .item<double>() *
                   count;
        sums[2] += count;
    }
    sumAcrossRanks(sums);
    model_->train();
    return {sums[0] / sums[2], sums[1] / sums[2]};
}

double BertPretraining::trainingFlopsPerStep() const {
    const BertShape& s = model_->shape();
    return static_cast<double>(options_.batch_per_rank) *
           encoderTrainingFlopsPerSequence(s.layers, s.hidden, s.ffn, s.vocab, seq_len_);
}

nlohmann::json BertPretraining::hyperparameters() const {
    return withRunHyperparameters(
        options_, world_,
        {{"seq_len", seq_len_},
         {"peak_lr", options_.lr},
         {"warmup_steps", warmup_steps_},
         {"schedule", "linear warm-up, then linear decay to 0 at the last step"},
         {"optimizer", "LAMB betas 0.9/0.999 eps 1e-6 weight_decay 0.01 (matrices), grad clip 1.0"},
         {"masking", "15% of positions; 80% [MASK], 10% random, 10% unchanged"}});
}

// The held-out sequences evaluate() reads: ceil(eval_samples / ranks) on every rank.
nlohmann::json BertPretraining::mllogFields() const {
    return {{"opt_name", "lamb"},
            {"eval_samples", (options_.eval_samples + world_.ranks - 1) / world_.ranks * world_.ranks}};
}

nlohmann::json BertPretraining::headerFields() const {
    const BertShape& s = model_->shape();
    return {{"preset", preset_},
            {"seq_len", seq_len_},
            {"model",
             {{"layers", s.layers},
              {"hidden", s.hidden},
              {"heads", s.heads},
              {"ffn", s.ffn},
              {"vocab", s.vocab}}},
            {"model_flops_per_sequence",
             encoderTrainingFlopsPerSequence(s.layers, s.hidden, s.ffn, s.vocab, seq_len_)},
            {"synthetic_tokens",
             "8-token Markov-chain phrase repeated, ids 4..vocab-1, 10% random tokens; [MASK] = 3"}};
}

void BertPretraining::saveState(torch::serialize::OutputArchive& archive) const {
    std::ostringstream masking;
    masking << masking_;
    const std::string rank = std::to_string(world_.rank);
    archive.write("synthetic_tokens_state_rank" + rank, c10::IValue(train_tokens_.state()));
    archive.write("masking_state_rank" + rank, c10::IValue(masking.str()));
}

void BertPretraining::loadState(torch::serialize::InputArchive& archive) {
    const std::string rank = std::to_string(world_.rank);
    c10::IValue state;
    if (archive.try_read("synthetic_tokens_state_rank" + rank, state))
        train_tokens_.setState(state.toStringRef());
    if (archive.try_read("masking_state_rank" + rank, state)) {
        std::istringstream in(state.toStringRef());
        in >> masking_;
    }
}

} // namespace scalebench
