// MLBench task 4: GNMT and Transformer translation with Adam, warm-up schedules, label smoothing; greedy
// decoding and corpus BLEU summed over every rank's share of the held-out pairs.
#include "translation.h"

#include "bleu.h"
#include "label_smoothing.h"

#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

constexpr double kLabelSmoothing = 0.1;    // MLBench task 4: LabelSmoothing(smoothing=0.1)
constexpr double kGnmtGradClip = 5.0;      // MLBench task 4a: max norm of 5.0 (4b clips nothing)
constexpr int64_t kSyntheticWords = 64;    // synthetic-parallel: words beside the four special tokens
constexpr int64_t kSyntheticPairs = 4096;  // synthetic-parallel: training pairs a rank
constexpr int64_t kEvalBatch = 64;         // MLBench: val_batch_size 64
constexpr int64_t kExtraDecodeTokens = 10; // greedy decoding stops at the longest source + 10 tokens
constexpr int64_t kGnmtMaxDecode = 150;    // MLBench task 4a: max_seq_len 150

GnmtOptions gnmtPreset(const std::string& preset, int64_t vocabulary) {
    GnmtOptions o;
    o.vocabulary = vocabulary;
    if (preset.empty() || preset == "mlbench") return o; // hidden 1024, 4 layers, dropout 0.2
    if (preset == "tiny") {
        o.hidden = 32;
        return o;
    }
    throw std::invalid_argument("--preset: gnmt has no preset '" + preset + "' (known: mlbench, tiny)");
}

TransformerOptions transformerPreset(const std::string& preset, int64_t vocabulary) {
    TransformerOptions o;
    o.vocabulary = vocabulary;
    if (preset.empty() || preset == "mlbench") return o; // MLBench's: transformer big, 1024 wide, 16 heads
    if (preset == "base") {
        o.model = 512;
        o.heads = 8;
        o.ffn = 2048;
        return o;
    }
    if (preset == "tiny") {
        o.model = 32;
        o.heads = 4;
        o.ffn = 64;
        o.layers = 2;
        return o;
    }
    throw std::invalid_argument("--preset: transformer has no preset '" + preset +
                                "' (known: mlbench, base, tiny)");
}

// Ids of a decoded row up to (not including) </s>.
std::vector<int64_t> hypothesis(const torch::Tensor& row) {
    std::vector<int64_t> out;
    const auto values = row.accessor<int64_t, 1>();
    for (int64_t i = 0; i < row.size(0) && values[i] != Vocabulary::kEos; ++i)
        out.push_back(values[i]);
    return out;
}

} // namespace

Translation::Translation(const EngineOptions& options, const World& world)
    : options_(options), world_(world) {
    const bool gnmt = options.workload == "gnmt";
    if (gnmt) refuseFp16Lstms(options);
    // MLBench: GNMT trains on sentences of at most 75 tokens, the Transformer on at most 80.
    max_length_ = options.seq_len > 0 ? options.seq_len : (gnmt ? 75 : 80);
    const uint64_t seed = static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank);
    SentencePairs train;
    if (options.dataset == "wmt") {
        const std::filesystem::path dir = options.data_dir;
        vocabulary_ = Vocabulary::fromFiles({dir / "train.src", dir / "train.tgt"});
        train = readParallelShard(dir / "train.src", dir / "train.tgt", vocabulary_, world.rank, world.ranks,
                                  max_length_);
        held_out_ =
            readParallelShard(dir / "valid.src", dir / "valid.tgt", vocabulary_, world.rank, world.ranks, 0);
        const int64_t kept = std::min<int64_t>(held_out_.size(), options.eval_samples / world.ranks + 1);
        for (auto* side : {&held_out_.sources, &held_out_.targets, &held_out_.references})
            side->resize(static_cast<std::size_t>(kept));
        if (train.size() == 0)
            throw std::runtime_error((dir / "train.src").string() + ": rank " + std::to_string(world.rank) +
                                     " has no sentence pair of 1 to " + std::to_string(max_length_) +
                                     " tokens");
    } else if (options.dataset == "synthetic-parallel") {
        vocabulary_ = Vocabulary::synthetic(kSyntheticWords);
        const int64_t longest = std::min<int64_t>(12, max_length_);
        train = syntheticParallel(vocabulary_, kSyntheticPairs, std::min<int64_t>(3, longest), longest, seed);
        held_out_ = syntheticParallel(vocabulary_, std::max(1, options.eval_samples / world.ranks),
                                      std::min<int64_t>(3, longest), longest, seed + 100003);
    } else {
        throw std::invalid_argument("--dataset: " + options.workload + " has no dataset '" + options.dataset +
                                    "' (known: wmt, synthetic-parallel)");
    }
    sampler_.emplace(std::move(train), options.batch_per_rank, seed);
    if (gnmt)
        gnmt_ = Gnmt(gnmtPreset(options.preset, vocabulary_.size()));
    else
        transformer_ = Transformer(transformerPreset(options.preset, vocabulary_.size()));
    warmup_steps_ = options.warmup_steps >= 0 ? options.warmup_steps : (gnmt ? 200 : 1000);
}

torch::nn::Module& Translation::module() {
    if (isGnmt()) return *gnmt_;
    return *transformer_;
}

std::unique_ptr<torch::optim::Optimizer> Translation::makeOptimizer() {
    // MLBench 4a: Adam(betas=(0.9, 0.999), eps=1e-8); 4b: Adam(betas=(0.9, 0.98), eps=1e-9); no weight decay.
    auto adam = torch::optim::AdamOptions(options_.lr);
    if (isGnmt())
        adam.betas({0.9, 0.999}).eps(1e-8);
    else
        adam.betas({0.9, 0.98}).eps(1e-9);
    return std::make_unique<torch::optim::Adam>(module().parameters(), adam);
}

Batch Translation::nextBatch() {
    ParallelBatch b = sampler_->next();
    const int64_t samples = b.source.size(0);
    return {{b.source, b.source_lengths, b.target_in, b.target_out}, samples, b.target_tokens};
}

torch::Tensor Translation::logits(const torch::Tensor& source, const torch::Tensor& lengths,
                                  const torch::Tensor& target_in) {
    if (isGnmt()) return gnmt_->forward(source, lengths, target_in);
    return transformer_->forward(source, target_in);
}

torch::Tensor Translation::forwardLoss(const Batch& batch) {
    const auto& t = batch.tensors; // source (B, S), lengths (B), target_in (B, T), target_out (B, T)
    return labelSmoothedLoss(logits(t[0], t[1], t[2]), t[3], kLabelSmoothing, Vocabulary::kPad);
}

void Translation::beforeOptimizerStep() {
    if (isGnmt()) torch::nn::utils::clip_grad_norm_(gnmt_->parameters(), kGnmtGradClip);
}

double Translation::learningRate(int64_t step) const {
    const double base = options_.lr;
    if (isGnmt()) {
        // MLPerf/MLBench GNMT (ExponentialWarmupMultiStepLR): exponential warm-up from base / 100 over the
        // warm-up steps; halved after 40% of the run and every 5% after that, at most 4 times.
        const int64_t done = step - 1; // the scheduler's last_epoch
        if (warmup_steps_ > 0 && done <= warmup_steps_)
            return base * std::pow(std::exp(std::log(0.01) / static_cast<double>(warmup_steps_)),
                                   static_cast<double>(warmup_steps_ - done));
        const auto remain = static_cast<int64_t>(std::llround(0.4 * options_.steps));
        const auto interval = std::max<int64_t>(1, std::llround(0.05 * options_.steps));
        if (done < remain) return base;
        const int64_t decays = std::min<int64_t>((done - remain) / interval + 1, 4);
        return base * std::pow(0.5, static_cast<double>(decays));
    }
    // MLBench Transformer (SQRTTimeDecayLRWithWarmup): linear from 0 over the warm-up, then base x
    // sqrt(warmup / step). Without warm-up, as with one step of it.
    const int64_t warmup = std::max<int64_t>(1, warmup_steps_);
    if (step < warmup) return base * static_cast<double>(step) / static_cast<double>(warmup);
    return base * std::sqrt(static_cast<double>(warmup) / static_cast<double>(step));
}

// Label-smoothed loss (teacher forcing) and BLEU of greedy translations, over every rank's held-out share.
Evaluation Translation::evaluate() {
    torch::NoGradGuard no_grad;
    module().eval();
    BleuCounts bleu;
    const torch::Device device = deviceOf(module());
    double loss_sums[2] = {0, 0}; // loss x tokens, tokens
    std::vector<int64_t> indices;
    for (int64_t start = 0; start < held_out_.size(); start += kEvalBatch) {
        indices.clear();
        for (int64_t i = start; i < std::min(held_out_.size(), start + kEvalBatch); ++i)
            indices.push_back(i);
        ParallelBatch b = makeParallelBatch(held_out_, indices);
        for (auto* t : {&b.source, &b.source_lengths, &b.target_in, &b.target_out})
            *t = t->to(device);
        const auto loss = labelSmoothedLoss(logits(b.source, b.source_lengths, b.target_in), b.target_out,
                                            kLabelSmoothing, Vocabulary::kPad);
        loss_sums[0] += loss.item<double>() * static_cast<double>(b.target_tokens);
        loss_sums[1] += static_cast<double>(b.target_tokens);

        int64_t max_length = b.source.size(1) + kExtraDecodeTokens;
        torch::Tensor decoded; // (B, <= max_length)
        if (isGnmt()) {
            max_length = std::min(max_length, kGnmtMaxDecode);
            decoded = gnmt_->greedyDecode(b.source, b.source_lengths, max_length, Vocabulary::kBos,
                                          Vocabulary::kEos);
        } else {
            decoded = transformer_->greedyDecode(b.source, max_length, Vocabulary::kBos, Vocabulary::kEos);
        }
        decoded = decoded.to(torch::kCPU);
        for (std::size_t row = 0; row < indices.size(); ++row)
            bleu.add(hypothesis(decoded[static_cast<int64_t>(row)]),
                     held_out_.references[static_cast<std::size_t>(indices[row])]);
    }
    sumAcrossRanks(bleu.data());
    sumAcrossRanks(loss_sums);
    module().train();
    const auto& c = bleu.values;
    const nlohmann::json counts = {{"matches", {c[0], c[1], c[2], c[3]}},
                                   {"ngrams", {c[4], c[5], c[6], c[7]}},
                                   {"hypothesis_length", c[8]},
                                   {"reference_length", c[9]}};
    return {
        corpusBleu(bleu), loss_sums[1] > 0 ? loss_sums[0] / loss_sums[1] : 0.0, {{"bleu_counts", counts}}};
}

nlohmann::json Translation::hyperparameters() const {
    nlohmann::json h =
        withRunHyperparameters(options_, world_,
                               {{"batch_unit", "sentence pairs"},
                                {"warmup_steps", warmup_steps_},
                                {"label_smoothing", kLabelSmoothing},
                                {"max_train_length", max_length_},
                                {"preset", options_.preset.empty() ? "mlbench" : options_.preset}});
    if (isGnmt()) {
        const auto& o = gnmt_->options();
        h["optimizer"] = "Adam betas (0.9, 0.999) eps 1e-8";
        h["schedule"] =
            "exponential warm-up from lr/100; x0.5 after 40% of the steps and every 5% after, at most 4 "
            "times";
        h["grad_clip"] = kGnmtGradClip;
        h["model"] = {
            {"hidden", o.hidden}, {"layers", o.layers}, {"dropout", o.dropout}, {"vocabulary", o.vocabulary}};
    } else {
        const auto& o = transformer_->options();
        h["optimizer"] = "Adam betas (0.9, 0.98) eps 1e-9";
        h["schedule"] = "linear warm-up from 0, then lr x sqrt(warmup / step)";
        h["grad_clip"] = nullptr;
        h["model"] = {{"d_model", o.model}, {"heads", o.heads},         {"ffn", o.ffn},
                      {"layers", o.layers}, {"dropout", o.dropout},     {"vocabulary", o.vocabulary},
                      {"norm", "pre"},      {"shared_embeddings", true}};
    }
    return h;
}

nlohmann::json Translation::headerFields() const {
    return {
        {"decoding", "greedy, up to the longest source + " + std::to_string(kExtraDecodeTokens) + " tokens"},
        {"bleu", "corpus BLEU on token ids, 4-gram, brevity penalty, sacrebleu's exp smoothing"}};
}

} // namespace scalebench
