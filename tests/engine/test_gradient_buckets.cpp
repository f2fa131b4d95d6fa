// Gradient buckets on the CPU, in this process at one rank over MPI (the loop a GPU runs is this one with
// device tensors): every gradient is a view of its bucket with its parameter's strides, a step leaves the
// average in the gradients themselves and zeroes them before the next, and the loss rides along.
#include "gradient_buckets.h"
#include "mpi_communicator.h"
#include "one_rank_mpi.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <torch/torch.h>

using namespace scalebench;

namespace {

// A convolution in channels-last memory (as the image workloads keep theirs), a bias and a linear layer.
struct SmallNet : torch::nn::Module {
    SmallNet() {
        conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3).padding(1)));
        head = register_module("head", torch::nn::Linear(4 * 5 * 5, 2));
        conv->weight.set_data(conv->weight.contiguous(torch::MemoryFormat::ChannelsLast));
    }
    torch::Tensor forward(const torch::Tensor& x) {
        return head->forward(torch::relu(conv->forward(x)).flatten(1));
    }
    torch::nn::Conv2d conv{nullptr};
    torch::nn::Linear head{nullptr};
};

torch::Tensor lossOf(SmallNet& net, int64_t seed) {
    torch::manual_seed(static_cast<uint64_t>(seed));
    const auto x = torch::randn({6, 3, 5, 5}).contiguous(torch::MemoryFormat::ChannelsLast);
    return torch::nn::functional::cross_entropy(net.forward(x), torch::tensor({0, 1, 1, 0, 1, 0}));
}

bool insideAnyBucket(const torch::Tensor& grad, const GradientBuckets& buckets) {
    for (std::size_t b = 0; b < buckets.bucketCount(); ++b)
        if (grad.is_alias_of(buckets.bucket(b))) return true;
    return false;
}

} // namespace

TEST_CASE("every parameter's gradient is a view of its bucket with the parameter's strides, a channels-last "
          "weight's too",
          "[engine][buckets]") {
    MpiCommunicator comm(oneRankWorld());
    SmallNet net;
    GradientBuckets buckets(net.parameters(), comm, 0.0001, 0.0004, true); // several small buckets
    CHECK(buckets.bucketCount() > 1);
    CHECK(buckets.path() == "host");
    for (const auto& p : net.parameters()) {
        REQUIRE(p.grad().defined());
        CHECK(insideAnyBucket(p.grad(), buckets));
        CHECK(p.grad().strides() == p.strides());
    }
    CHECK(net.conv->weight.grad().is_contiguous(torch::MemoryFormat::ChannelsLast));
}

TEST_CASE(
    "a step leaves the ranks' average in the gradients themselves, with the averaged loss, and the next "
    "step starts from zero",
    "[engine][buckets]") {
    const bool overlap = GENERATE(true, false);
    INFO("overlap " << overlap);
    MpiCommunicator comm(oneRankWorld());
    SmallNet reference, net;
    torch::NoGradGuard copying;
    for (std::size_t i = 0; i < net.parameters().size(); ++i)
        net.parameters()[i].copy_(reference.parameters()[i]);
    GradientBuckets buckets(net.parameters(), comm, 0.0001, 0.0004, overlap);
    for (int64_t step = 1; step <= 2; ++step) {
        torch::AutoGradMode grad_mode(true);
        reference.zero_grad();
        lossOf(reference, step).backward(); // plain autograd: at one rank the average is this

        const auto loss = lossOf(net, step);
        const auto before = std::chrono::steady_clock::now();
        buckets.beginStep(loss);
        const auto begun = std::chrono::steady_clock::now(); // the buckets' origin lies between the two
        loss.backward();
        const auto backward_end = std::chrono::steady_clock::now();
        buckets.finishStep();
        const double finished_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
        const auto communication = buckets.collect();

        CHECK(communication.mean_loss == Approx(loss.item<double>()));
        // Each bucket's all-reduce, in bucket order, on the time line from beginStep: after backward without
        // overlap, and all before finishStep returned.
        REQUIRE(communication.buckets.size() == buckets.bucketCount());
        const double backward_s = std::chrono::duration<double>(backward_end - begun).count();
        for (const auto& b : communication.buckets) {
            CHECK(b.start_s >= 0);
            CHECK(b.start_s <= b.end_s);
            CHECK(b.end_s <= finished_s);
            if (!overlap) CHECK(b.start_s >= backward_s);
        }
        for (std::size_t i = 0; i < net.parameters().size(); ++i)
            CHECK(torch::allclose(net.parameters()[i].grad(), reference.parameters()[i].grad(), 1e-6, 1e-7));
    }
}

namespace {

// MPI's collectives, counted (the buckets' all-reduces of a step).
class CountingCommunicator : public Communicator {
  public:
    explicit CountingCommunicator(Communicator& inner) : inner_(inner) {}
    std::string backend() const override { return inner_.backend(); }
    std::string description() const override { return inner_.description(); }
    int rank() const override { return inner_.rank(); }
    int size() const override { return inner_.size(); }
    void checkSupported(Collective c, DType d, ReduceOp op, bool in_place) const override {
        inner_.checkSupported(c, d, op, in_place);
    }
    std::unique_ptr<CommWork> start(const CollectiveCall& call) override {
        ++started;
        return inner_.start(call);
    }
    int started = 0;

  private:
    Communicator& inner_;
};

} // namespace

TEST_CASE(
    "gradient accumulation: two half-batches give the whole batch's gradients, each loss halved, and the "
    "buckets are all-reduced once, after the last",
    "[engine][buckets][accumulation]") {
    const bool overlap = GENERATE(true, false);
    INFO("overlap " << overlap);
    MpiCommunicator mpi(oneRankWorld());
    CountingCommunicator comm(mpi);
    SmallNet reference, net;
    torch::NoGradGuard copying;
    for (std::size_t i = 0; i < net.parameters().size(); ++i)
        net.parameters()[i].copy_(reference.parameters()[i]);
    GradientBuckets buckets(net.parameters(), comm, 0.0001, 0.0004, overlap); // several buckets
    torch::AutoGradMode grad_mode(true);
    torch::manual_seed(7);
    const auto x = torch::randn({6, 3, 5, 5}).contiguous(torch::MemoryFormat::ChannelsLast);
    const auto y = torch::tensor({0, 1, 1, 0, 1, 0});
    const auto loss = [](SmallNet& n, const torch::Tensor& images, const torch::Tensor& labels) {
        return torch::nn::functional::cross_entropy(n.forward(images), labels);
    };
    reference.zero_grad();
    const auto whole = loss(reference, x, y); // the batch of 6 at once
    whole.backward();

    for (int step = 1; step <= 2; ++step) { // the second step starts from zero again
        comm.started = 0;
        const auto first = loss(net, x.narrow(0, 0, 3), y.narrow(0, 0, 3)) / 2;
        buckets.accumulate(true);
        first.backward();
        CHECK(comm.started == 0); // an accumulation micro-batch communicates nothing
        const auto second = loss(net, x.narrow(0, 3, 3), y.narrow(0, 3, 3)) / 2;
        buckets.beginStep((first + second).detach(), false);
        second.backward();
        buckets.finishStep();
        const auto communication = buckets.collect();
        CHECK(comm.started == static_cast<int>(buckets.bucketCount()));
        CHECK(communication.mean_loss == Approx(whole.item<double>()).epsilon(1e-6));
        for (std::size_t i = 0; i < net.parameters().size(); ++i)
            CHECK(torch::allclose(net.parameters()[i].grad(), reference.parameters()[i].grad(), 1e-5, 1e-6));
    }
}
