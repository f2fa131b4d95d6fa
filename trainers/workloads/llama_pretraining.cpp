// LLM pre-training (MaxText's Llama-2 recipe, seed 003): Llama on synthetic tokens, AdamW, held-out loss.
#include "llama_pretraining.h"

#include "fused_adamw.h"
#include "gradient_clipping.h"

#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// Llama 2 (Touvron et al. 2023, 2.2): AdamW b1 0.9, b2 0.95, eps 1e-5, weight decay 0.1, cosine schedule to
// 10% of the peak after 2000 warm-up steps, gradient clipping 1.0. MaxText's Llama-2 70B recipe (seed 003)
// states no optimizer settings, only sequence 4096 and the global batch (GPUs x micro-batch 2).
constexpr double kBeta1 = 0.9, kBeta2 = 0.95, kEps = 1e-5, kWeightDecay = 0.1, kClipNorm = 1.0;
constexpr double kFinalLrFraction = 0.1;
constexpr int64_t kLlama2WarmupSteps = 2000;
constexpr double kNoise = 0.1; // synthetic-tokens: 10% of the tokens random, 90% the chain's successor

std::string presetOf(const EngineOptions& o) {
    return o.preset.empty() ? "small" : o.preset;
}

int64_t defaultSeqLen(const std::string& preset) {
    if (preset == "tiny") return 16;
    if (preset == "small") return 128;
    if (preset == "1b") return 2048;
    return 4096; // Llama 2 and the recipe
}

} // namespace

LlamaPretraining::LlamaPretraining(const EngineOptions& o, const World& w)
    : options_(o), world_(w), preset_(presetOf(o)),
      seq_len_(o.seq_len > 0 ? o.seq_len : defaultSeqLen(preset_)), model_(llamaPresetShape(preset_)),
      train_tokens_(llamaPresetShape(preset_).vocab, 0, kNoise,
                    static_cast<uint64_t>(o.seed) * 7919 + static_cast<uint64_t>(w.rank)) {
    if (o.dataset != "synthetic-tokens")
        throw std::invalid_argument("--dataset: llama has no dataset '" + o.dataset +
                                    "' (known: synthetic-tokens)");
    warmup_steps_ =
        o.warmup_steps >= 0 ? o.warmup_steps : std::min<int64_t>(kLlama2WarmupSteps, o.steps / 10);
}

std::unique_ptr<torch::optim::Optimizer> LlamaPretraining::makeOptimizer() {
    // Weight decay on the matrices and embeddings only, not on the norms' weights.
    std::vector<torch::Tensor> decayed, other;
    for (const auto& p : model_->parameters())
        (p.dim() >= 2 ? decayed : other).push_back(p);
    const auto options = [&](double decay) {
        return std::make_unique<torch::optim::AdamWOptions>(
            torch::optim::AdamWOptions(options_.lr).betas({kBeta1, kBeta2}).eps(kEps).weight_decay(decay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decayed, options(kWeightDecay));
    groups.emplace_back(other, options(0));
    return std::make_unique<FusedAdamW>(groups, *options(kWeightDecay));
}

Batch LlamaPretraining::nextBatch() {
    auto tokens = train_tokens_.next(options_.batch_per_rank, seq_len_ + 1); // (B, T + 1)
    return {{tokens}, options_.batch_per_rank, options_.batch_per_rank * seq_len_};
}

torch::Tensor LlamaPretraining::forwardLoss(const Batch& batch) {
    const auto& tokens = batch.tensors[0];
    const auto inputs = tokens.narrow(1, 0, seq_len_), targets = tokens.narrow(1, 1, seq_len_); // (B, T)
    const auto logits = model_->forward(inputs);                                                // (B, T, V)
    return torch::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}), targets.reshape({-1}));
}

void LlamaPretraining::beforeOptimizerStep() {
    clipGradNorm(model_->parameters(), kClipNorm);
}

// Linear warm-up to --lr, then cosine decay to 10% of it at the last step (Llama 2). No scaling with the
// ranks: the global batch is the recipe's (batch per rank x ranks).
double LlamaPretraining::learningRate(int64_t step) const {
    const double peak = options_.lr;
    if (step <= warmup_steps_) return peak * static_cast<double>(step) / static_cast<double>(warmup_steps_);
    const double span = std::max<double>(1, static_cast<double>(options_.steps - warmup_steps_));
    const double progress = std::min(1.0, static_cast<double>(step - warmup_steps_) / span);
    const double pi = std::acos(-1.0);
    return peak * (kFinalLrFraction + (1 - kFinalLrFraction) * 0.5 * (1 + std::cos(pi * progress)));
}

// Next-token loss over ceil(eval_samples / ranks) held-out sequences a rank, the same ones at every
// evaluation (a generator of their own), in batches of batch_per_rank.
Evaluation LlamaPretraining::evaluate() {
    torch::NoGradGuard no_grad;
    model_->eval();
    SyntheticTokens held_out(model_->shape().vocab, 0, kNoise,
                             static_cast<uint64_t>(options_.seed) * 7919 + 1000003 +
                                 static_cast<uint64_t>(world_.rank));
    const int64_t sequences = (options_.eval_samples + world_.ranks - 1) / world_.ranks;
    double sums[2] = {0, 0}; // loss x tokens, tokens
    for (int64_t done = 0; done < sequences; done += options_.batch_per_rank) {
        const int64_t n = std::min<int64_t>(options_.batch_per_rank, sequences - done);
        const auto tokens = held_out.next(n, seq_len_ + 1).to(deviceOf(*model_));
        const auto logits = model_->forward(tokens.narrow(1, 0, seq_len_));
        const auto loss = torch::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}),
                                                    tokens.narrow(1, 1, seq_len_).reshape({-1}));
        sums[0] += loss.item<double>() * static_cast<double>(n * seq_len_);
        sums[1] += static_cast<double>(n * seq_len_);
    }
    sumAcrossRanks(sums);
    model_->train();
    const double loss = sums[0] / sums[1];
    return {loss, loss};
}

// The recipe's model FLOPs (model_flops.h) of this rank's sequences; causal attention not halved.
double LlamaPretraining::trainingFlopsPerStep() const {
    return static_cast<double>(options_.batch_per_rank) *
           maxtextTrainingFlopsPerSequence(model_->shape(), seq_len_);
}

nlohmann::json LlamaPretraining::hyperparameters() const {
    return withRunHyperparameters(
        options_, world_,
        {{"seq_len", seq_len_},
         {"peak_lr", options_.lr},
         {"warmup_steps", warmup_steps_},
         {"schedule", "linear warm-up, cosine decay to 0.1 x peak at the last step"},
         {"optimizer", "AdamW betas 0.9/0.95 eps 1e-5 weight_decay 0.1 (matrices), grad clip 1.0"}});
}

// The held-out sequences evaluate() reads: ceil(eval_samples / ranks) on every rank.
nlohmann::json LlamaPretraining::mllogFields() const {
    return {{"opt_name", "adamw"},
            {"eval_samples", (options_.eval_samples + world_.ranks - 1) / world_.ranks * world_.ranks}};
}

nlohmann::json LlamaPretraining::headerFields() const {
    const DecoderShape& s = model_->shape();
    return {
        {"preset", preset_},
        {"seq_len", seq_len_},
        {"model",
         {{"layers", s.layers},
          {"hidden", s.hidden},
          {"heads", s.heads},
          {"kv_heads", s.kv_heads},
          {"ffn", s.ffn},
          {"vocab", s.vocab}}},
        {"model_flops_per_sequence", maxtextTrainingFlopsPerSequence(s, seq_len_)},
        {"model_flops_convention",
         "MaxText Llama-2 recipe: seq x (12 L h^2 (1 + kv/heads + seq/h) + 18 L ffn h + 6 V h), forward + "
         "backward, causal attention not halved, norms not counted"},
        {"synthetic_tokens", "Markov chain over the vocabulary, 10% random tokens"}};
}

void LlamaPretraining::saveState(torch::serialize::OutputArchive& archive) const {
    archive.write("synthetic_tokens_state_rank" + std::to_string(world_.rank),
                  c10::IValue(train_tokens_.state()));
}

void LlamaPretraining::loadState(torch::serialize::InputArchive& archive) {
    c10::IValue state;
    if (archive.try_read("synthetic_tokens_state_rank" + std::to_string(world_.rank), state))
        train_tokens_.setState(state.toStringRef());
}

} // namespace scalebench
