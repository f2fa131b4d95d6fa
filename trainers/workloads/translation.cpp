// MLBench task 4: GNMT and Transformer translation with Adam, warm-up schedules, label smoothing; beam
// decoding and corpus BLEU summed over every rank's share of the held-out pairs.
#include "translation.h"

#include "bleu.h"
#include "gradient_clipping.h"
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
constexpr int64_t kExtraDecodeTokens = 10; // decoding stops at the longest source + 10 tokens
constexpr int64_t kGnmtMaxDecode = 150;    // MLBench task 4a: max_seq_len 150
constexpr int64_t kGnmtBeam = 5;           // MLBench task 4a's reference: beam_size 5, len_norm_factor 0.6
constexpr int64_t kTransformerBeam = 4;    // MLBench task 4b's reference: beam_size=4, len_penalty=0.6
// MLBench task 4a (seed 004): "trained on sentences of maximum length 75 tokens, and tested on sentences of
// max length 150 tokens"; task 4b: "trained and tested on sentences of maximum length 80 tokens".
constexpr int64_t kGnmtMaxTrain = 75, kGnmtMaxTest = 150, kTransformerMaxLength = 80;

// MLBench task 4a's loss scaling (seed 004): "initial_scale = 2**10 scale_factor = 2 (downscale and upscale)
// max_scale = 2**13 scale_window = 128"; task 4b's: "initial_scale = 2**7 scale_factor = 2 ... scale_window =
// 2000" (no max_scale: LossScalerOptions' defaults).
LossScalerOptions gnmtLossScaling() {
    LossScalerOptions o;
    o.initial_scale = 1024; // 2**10
    o.factor = 2;
    o.window = 128;
    o.max_scale = 8192; // 2**13
    return o;
}

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

// The tokens of a decoded row up to (not including) </s>, without <pad> and <s> (as MLBench's detokenize
// drops them; <unk> stays).
std::vector<std::string> hypothesis(const torch::Tensor& row, const Vocabulary& vocabulary) {
    std::vector<std::string> out;
    const auto values = row.accessor<int64_t, 1>();
    for (int64_t i = 0; i < row.size(0) && values[i] != Vocabulary::kEos; ++i)
        if (values[i] != Vocabulary::kPad && values[i] != Vocabulary::kBos)
            out.push_back(vocabulary.word(values[i]));
    return out;
}

} // namespace

Translation::Translation(const EngineOptions& options, const World& world)
    : options_(options), world_(world) {
    const bool gnmt = options.workload == "gnmt";
    // MLBench: GNMT trains on sentences of at most 75 tokens and is tested on at most 150, the Transformer on
    // at most 80 both.
    max_length_ = options.seq_len > 0 ? options.seq_len : (gnmt ? kGnmtMaxTrain : kTransformerMaxLength);
    max_test_length_ = gnmt ? kGnmtMaxTest : kTransformerMaxLength;
    const uint64_t seed = static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank);
    SentencePairs train;
    if (options.dataset == "wmt") {
        const std::filesystem::path dir = options.data_dir;
        vocabulary_ = Vocabulary::fromFiles({dir / "train.src", dir / "train.tgt"});
        train = readParallelShard(dir / "train.src", dir / "train.tgt", vocabulary_, world.rank, world.ranks,
                                  max_length_);
        held_out_ = readParallelShard(dir / "valid.src", dir / "valid.tgt", vocabulary_, world.rank,
                                      world.ranks, max_test_length_, true);
        const auto kept = static_cast<std::size_t>( // --eval-samples 0: the whole (length-filtered) test set
            options.eval_samples > 0
                ? std::min<int64_t>(held_out_.size(), options.eval_samples / world.ranks + 1)
                : held_out_.size());
        for (auto* side : {&held_out_.sources, &held_out_.targets})
            side->resize(kept);
        held_out_.target_text.resize(kept);
        if (train.size() == 0)
            throw std::runtime_error((dir / "train.src").string() + ": rank " + std::to_string(world.rank) +
                                     " has no sentence pair of 1 to " + std::to_string(max_length_) +
                                     " tokens");
    } else if (options.dataset == "synthetic-parallel") {
        vocabulary_ = Vocabulary::synthetic(kSyntheticWords);
        const int64_t longest = std::min<int64_t>(12, max_length_);
        train = syntheticParallel(vocabulary_, kSyntheticPairs, std::min<int64_t>(3, longest), longest, seed);
        held_out_ = syntheticParallel(vocabulary_, std::max(1, syntheticHeldOut(options) / world.ranks),
                                      std::min<int64_t>(3, longest), longest, seed + 100003);
    } else {
        throw std::invalid_argument("--dataset: " + options.workload + " has no dataset '" + options.dataset +
                                    "' (known: wmt, synthetic-parallel)");
    }
    // Every rank's training pairs (one epoch) and held-out pairs.
    double pairs[2] = {static_cast<double>(train.size()), static_cast<double>(held_out_.size())};
    sumAcrossRanks(pairs);
    train_samples_ = static_cast<int64_t>(pairs[0]);
    eval_samples_ = static_cast<int64_t>(pairs[1]);
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
    const auto loss = labelSmoothedLoss(logits(t[0], t[1], t[2]), t[3], kLabelSmoothing, Vocabulary::kPad);
    if (isGnmt() || world_.ranks == 1) return loss;
    // The Transformer as fairseq (MLBench task 4b): the step's gradient is the sum of every rank's token
    // losses over the tokens of all ranks. The buckets average over ranks, so each rank weighs its own mean
    // by ranks x its tokens / all tokens; the loss the step reports is then the all-rank token mean.
    double tokens = static_cast<double>(batch.tokens); // this rank's target tokens -> all ranks'
    sumAcrossRanks({&tokens, 1});
    return loss * globalTokenWeight(batch.tokens, static_cast<int64_t>(tokens), world_.ranks);
}

void Translation::beforeOptimizerStep() {
    if (isGnmt()) clipGradNorm(gnmt_->parameters(), kGnmtGradClip);
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

// Label-smoothed loss (teacher forcing) and BLEU of beam-searched translations on MLBench's words, over every
// rank's held-out share: the corpus BLEU of all of it, and beside it MLBench's own figure, the mean over
// batches of 64 of each batch's corpus BLEU, weighted by its sentences (mlbench_core's BLEUScore with its
// AverageMeter), and the corpus BLEU of greedy decoding.
Evaluation Translation::evaluate() {
    torch::NoGradGuard no_grad;
    module().eval();
    BleuCounts bleu;
    BleuCounts greedy_bleu;        // of greedy decoding, beside the beams'
    double batch_bleu[2] = {0, 0}; // sum of BLEU x sentences over batches, sentences
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
        if (isGnmt()) max_length = std::min(max_length, kGnmtMaxDecode);
        // The reference's beam search (the value) and greedy decoding (beside it: their difference measured).
        BeamOptions beam;
        beam.max_length = max_length;
        beam.bos = Vocabulary::kBos;
        beam.eos = Vocabulary::kEos;
        torch::Tensor beamed, greedy; // (B, <= max_length)
        if (isGnmt()) {
            beam.beam = kGnmtBeam;
            beam.penalty = LengthPenalty::gnmt;
            beamed = gnmt_->beamDecode(b.source, b.source_lengths, beam);
            greedy = gnmt_->greedyDecode(b.source, b.source_lengths, max_length, Vocabulary::kBos,
                                         Vocabulary::kEos);
        } else {
            beam.beam = kTransformerBeam;
            beam.penalty = LengthPenalty::fairseq;
            beam.min_length = 1; // the reference's minlen=1: no empty translation
            beamed = transformer_->beamDecode(b.source, beam);
            greedy = transformer_->greedyDecode(b.source, max_length, Vocabulary::kBos, Vocabulary::kEos);
        }
        beamed = beamed.to(torch::kCPU);
        greedy = greedy.to(torch::kCPU);
        BleuCounts batch_counts;
        for (std::size_t row = 0; row < indices.size(); ++row) {
            const auto reference = bleuWords(held_out_.target_text[static_cast<std::size_t>(indices[row])]);
            batch_counts.add(bleuWords(hypothesis(beamed[static_cast<int64_t>(row)], vocabulary_)),
                             reference);
            greedy_bleu.add(bleuWords(hypothesis(greedy[static_cast<int64_t>(row)], vocabulary_)), reference);
        }
        bleu += batch_counts;
        batch_bleu[0] += corpusBleu(batch_counts) * static_cast<double>(indices.size());
        batch_bleu[1] += static_cast<double>(indices.size());
    }
    sumAcrossRanks(bleu.data());
    sumAcrossRanks(greedy_bleu.data());
    sumAcrossRanks(loss_sums);
    sumAcrossRanks(batch_bleu);
    module().train();
    const auto& c = bleu.values;
    const nlohmann::json counts = {{"matches", {c[0], c[1], c[2], c[3]}},
                                   {"ngrams", {c[4], c[5], c[6], c[7]}},
                                   {"hypothesis_length", c[8]},
                                   {"reference_length", c[9]}};
    return {corpusBleu(bleu),
            loss_sums[1] > 0 ? loss_sums[0] / loss_sums[1] : 0.0,
            {{"bleu_counts", counts},
             {"bleu_mean_of_batches", batch_bleu[1] > 0 ? batch_bleu[0] / batch_bleu[1] : 0.0},
             {"bleu_greedy", corpusBleu(greedy_bleu)},
             {"test_sentences", static_cast<int64_t>(batch_bleu[1])}}};
}

nlohmann::json Translation::hyperparameters() const {
    nlohmann::json h =
        withRunHyperparameters(options_, world_,
                               {{"batch_unit", "sentence pairs"},
                                {"warmup_steps", warmup_steps_},
                                {"label_smoothing", kLabelSmoothing},
                                {"max_train_length", max_length_},
                                {"max_test_length", max_test_length_},
                                {"preset", options_.preset.empty() ? "mlbench" : options_.preset}});
    const LossScalerOptions scaling = lossScaling();
    h["fp16_loss_scaling"] = {{"initial_scale", scaling.initial_scale},
                              {"factor", scaling.factor},
                              {"window", scaling.window},
                              {"max_scale", std::isfinite(scaling.max_scale)
                                                ? nlohmann::json(scaling.max_scale)
                                                : nlohmann::json()}};
    h["loss_normalisation"] =
        isGnmt() ? "each rank's mean over its target tokens, averaged over ranks"
                 : "the sum of every rank's token losses over the target tokens of all ranks (fairseq)";
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

nlohmann::json Translation::mllogFields() const {
    return {{"opt_name", "adam"}, {"eval_samples", eval_samples_}};
}

nlohmann::json Translation::headerFields() const {
    return {{"decoding", "beam search, " + std::to_string(isGnmt() ? kGnmtBeam : kTransformerBeam) +
                             " beams, length penalty " + (isGnmt() ? "((5 + L) / 6)^0.6" : "L^0.6") +
                             ", no coverage penalty, up to the longest source + " +
                             std::to_string(kExtraDecodeTokens) + " tokens" +
                             (isGnmt() ? " (at most 150)" : "") + "; bleu_greedy: greedy decoding's BLEU"},
            {"bleu",
             "corpus BLEU of the test sentences of at most " + std::to_string(max_test_length_) +
                 " tokens on MLBench's words (BPE merged, lowercased, sacrebleu's intl tokenisation), "
                 "4-gram, brevity penalty, sacrebleu's exp smoothing; bleu_mean_of_batches: MLBench's mean "
                 "of each batch's BLEU (64 sentences a batch, per rank)"}};
}

LossScalerOptions Translation::lossScaling() const {
    return isGnmt() ? gnmtLossScaling() : LossScalerOptions{};
}

} // namespace scalebench
