// The collective sweep (MLBench task 0, extended to every collective), timed like nccl-tests.
#include "collective_sweep.h"

#include "bus_bandwidth.h"
#include "message_sizes.h"
#include "metric_stream.h"
#include "mpi_check.h"
#include "mpi_communicator.h"

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

namespace scalebench {
namespace {

// Element i of rank r's input: small integers, so every sum over up to 36 ranks is exact even in bf16
// (8 significant bits); the 3r keeps ranks' blocks apart.
float inputValue(int rank, std::int64_t i) {
    return static_cast<float>((3 * rank + i) % 7 + 1);
}

Collective collectiveNamed(const std::string& name) {
    for (auto c : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                   Collective::Broadcast, Collective::AllToAll})
        if (name == collectiveName(c)) return c;
    throw std::invalid_argument("unknown collective '" + name + "'");
}
DType dtypeNamed(const std::string& name) {
    for (auto d : {DType::Float32, DType::Float16, DType::BFloat16})
        if (name == dtypeName(d)) return d;
    throw std::invalid_argument("unknown dtype '" + name + "'");
}

// One relative unit in the last place of the dtype: the tolerance of averages (sums must be exact).
double ulp(DType d) {
    switch (d) {
    case DType::Float32:
        return std::ldexp(1.0, -23);
    case DType::Float16:
        return std::ldexp(1.0, -10);
    case DType::BFloat16:
        return std::ldexp(1.0, -7);
    }
    return 0;
}

void store(std::vector<char>& bytes, DType d, std::int64_t i, float value) {
    switch (d) {
    case DType::Float32:
        reinterpret_cast<float*>(bytes.data())[i] = value;
        break;
    case DType::Float16:
        reinterpret_cast<c10::Half*>(bytes.data())[i] = c10::Half(value);
        break;
    case DType::BFloat16:
        reinterpret_cast<c10::BFloat16*>(bytes.data())[i] = c10::BFloat16(value);
        break;
    }
}
float load(const std::vector<char>& bytes, DType d, std::int64_t i) {
    switch (d) {
    case DType::Float32:
        return reinterpret_cast<const float*>(bytes.data())[i];
    case DType::Float16:
        return static_cast<float>(reinterpret_cast<const c10::Half*>(bytes.data())[i]);
    case DType::BFloat16:
        return static_cast<float>(reinterpret_cast<const c10::BFloat16*>(bytes.data())[i]);
    }
    return 0;
}

// The buffers of one message size: where the input sits and the result lands (NCCL's in-place layouts).
struct Layout {
    std::int64_t count = 0;         // the call's count (see CollectiveCall)
    std::int64_t total = 0;         // elements of the large buffer: what the record reports (nccl-tests)
    std::int64_t send_elements = 0; // input elements of this rank
    std::int64_t receive_elements = 0;
    std::int64_t send_offset = 0; // in place: elements from the start of the one buffer
    std::int64_t receive_offset = 0;
};

Layout layoutFor(Collective c, std::int64_t elements, int rank, int n, bool in_place) {
    Layout l;
    const std::int64_t block = std::max<std::int64_t>(1, elements / n);
    switch (c) {
    case Collective::AllReduce:
    case Collective::Broadcast:
        l = {elements, elements, elements, elements, 0, 0};
        break;
    case Collective::AllGather:
        l = {block, block * n, block, block * n, in_place ? rank * block : 0, 0};
        break;
    case Collective::ReduceScatter:
        l = {block, block * n, block * n, block, 0, in_place ? rank * block : 0};
        break;
    case Collective::AllToAll:
        l = {block, block * n, block * n, block * n, 0, 0};
        break;
    }
    return l;
}

// The value element k of this rank's result must have.
double expected(const SweepCase& s, const Layout& l, int rank, int n, std::int64_t k) {
    auto sum_over_ranks = [n](std::int64_t i) {
        double total = 0;
        for (int r = 0; r < n; ++r)
            total += inputValue(r, i);
        return total;
    };
    double value = 0;
    switch (s.collective) {
    case Collective::AllReduce:
        value = sum_over_ranks(k);
        break;
    case Collective::Broadcast:
        value = inputValue(0, k);
        break;
    case Collective::AllGather:
        value = inputValue(static_cast<int>(k / l.count), k % l.count);
        break;
    case Collective::ReduceScatter:
        value = sum_over_ranks(rank * l.count + k);
        break;
    case Collective::AllToAll:
        value = inputValue(static_cast<int>(k / l.count), rank * l.count + k % l.count);
        break;
    }
    return isReduction(s.collective) && s.op == ReduceOp::Average ? value / n : value;
}

// OSU's way: every call alone, started together after a barrier that is not timed; this rank's mean.
template <typename Call> double secondsPerCall(int repetitions, MPI_Comm mpi, const Call& call) {
    double seconds = 0;
    for (int i = 0; i < repetitions; ++i) {
        MPI_CHECK(MPI_Barrier(mpi));
        const auto start = std::chrono::steady_clock::now();
        call();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return seconds / repetitions;
}

} // namespace

std::vector<SweepCase> sweepCases(const EngineOptions& o, const Communicator& comm,
                                  std::vector<std::string>& skipped) {
    std::vector<bool> placements;
    if (o.in_place != "yes") placements.push_back(false);
    if (o.in_place != "no") placements.push_back(true);
    std::vector<SweepCase> cases;
    for (const auto& c : o.collectives)
        for (const auto& d : o.dtypes)
            for (const auto& op : o.ops) {
                const Collective collective = collectiveNamed(c);
                if (!isReduction(collective) && op != o.ops.front()) continue; // no reduction: once
                for (bool in_place : placements) {
                    SweepCase s{collective, dtypeNamed(d), op == "avg" ? ReduceOp::Average : ReduceOp::Sum,
                                in_place};
                    try {
                        comm.checkSupported(s.collective, s.dtype, s.op, s.in_place);
                    } catch (const std::invalid_argument& e) {
                        if (!(in_place && o.in_place == "both")) throw;
                        skipped.push_back(e.what());
                        continue;
                    }
                    cases.push_back(s);
                }
            }
    return cases;
}

namespace {
// Fault injection, so that tests can show the check below says no (docs/testing.md):
// SCALEBENCH_FAULT_CORRUPT_RESULT=R changes the last element of rank R's every result, as a bad link or
// kernel would. -1 (unset): no fault.
int corruptedRank() {
    const char* rank = std::getenv("SCALEBENCH_FAULT_CORRUPT_RESULT");
    return rank && *rank ? std::atoi(rank) : -1;
}

// Warm-up calls, then o.repetitions timed ones: seconds per call, averaged across ranks. Collective.
double secondsPerCallAcrossRanks(const EngineOptions& o, Communicator& comm, const CollectiveCall& call,
                                 MPI_Comm mpi) {
    for (int i = 0; i < o.warmup_iterations; ++i)
        comm.run(call);
    double seconds = 0; // per call, this rank
    if (o.timing == "per-call" && !comm.deviceMemory()) {
        if (const auto* mpi_backend = dynamic_cast<const MpiCommunicator*>(&comm)) {
            const MpiCall resolved = mpi_backend->resolve(call); // MPI called from the loop itself
            seconds = secondsPerCall(o.repetitions, mpi, [&resolved] { resolved.run(); });
        } else {
            seconds = secondsPerCall(o.repetitions, mpi, [&] { comm.run(call); });
        }
    } else {
        // nccl-tests' way: the calls back to back, each waiting for the slowest rank of the one
        // before.
        MPI_CHECK(MPI_Barrier(mpi));
        const auto start = std::chrono::steady_clock::now();
        std::unique_ptr<CommWork> last;
        for (int i = 0; i < o.repetitions; ++i) {
            if (comm.deviceMemory())
                last = comm.start(call); // on a device the calls queue on one stream
            else
                comm.run(call); // on host memory each call completes before the next
        }
        if (last) last->wait();
        seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / o.repetitions;
    }
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_SUM, mpi));
    return seconds / comm.size(); // averaged across ranks, as nccl-tests
}

// One more call on fresh input, every element of the result checked (host holds the result afterwards); true
// when every rank's result is right. Collective.
bool resultCorrect(const SweepCase& s, const Layout& l, Communicator& comm, const CollectiveCall& call,
                   std::vector<char>& host, bool corrupt, MPI_Comm mpi) {
    const int rank = comm.rank();
    const std::size_t width = dtypeBytes(s.dtype);
    for (std::int64_t i = 0; i < l.send_elements; ++i)
        store(host, s.dtype, i, inputValue(rank, i));
    comm.upload(const_cast<void*>(call.send), host.data(), static_cast<std::size_t>(l.send_elements) * width);
    comm.run(call);
    comm.download(host.data(), call.receive, static_cast<std::size_t>(l.receive_elements) * width);
    if (corrupt && l.receive_elements > 0) { // v + 1 + |v| differs from v in every dtype
        const double v = load(host, s.dtype, l.receive_elements - 1);
        store(host, s.dtype, l.receive_elements - 1, v + 1 + std::abs(v));
    }
    int correct = 1;
    for (std::int64_t k = 0; k < l.receive_elements && correct; ++k) {
        const double want = expected(s, l, rank, comm.size(), k);
        const double got = load(host, s.dtype, k);
        correct = s.op == ReduceOp::Sum || !isReduction(s.collective)
                      ? got == want
                      : std::abs(got - want) <= ulp(s.dtype) * std::abs(want);
    }
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_LAND, mpi));
    return correct != 0;
}
} // namespace

bool runCollectiveSweep(const EngineOptions& o, const std::vector<SweepCase>& cases, Communicator& comm,
                        MPI_Comm mpi, MetricWriter* writer) {
    const int rank = comm.rank(), n = comm.size();
    bool all_correct = true;
    const bool corrupt = corruptedRank() == rank;
    for (const SweepCase& s : cases) {
        const std::size_t width = dtypeBytes(s.dtype);
        std::set<std::int64_t> done; // totals already timed (small sizes round to the same blocks)
        for (const std::int64_t elements : logspaceSizes(o.sweep_max_log10, o.sweep_points)) {
            const Layout l = layoutFor(s.collective, elements, rank, n, s.in_place);
            if (!done.insert(l.total).second) continue;
            // host: the input, later the result; send and receive: the backend's buffers (one when in place)
            std::vector<char> host(static_cast<std::size_t>(std::max(l.send_elements, l.receive_elements)) *
                                   width);
            for (std::int64_t i = 0; i < l.send_elements; ++i)
                store(host, s.dtype, i, inputValue(rank, i));
            const std::size_t send_bytes = static_cast<std::size_t>(l.send_elements) * width;
            const std::size_t receive_bytes = static_cast<std::size_t>(l.receive_elements) * width;
            CommBuffer first =
                comm.allocate(s.in_place ? static_cast<std::size_t>(l.total) * width : send_bytes);
            CommBuffer second = s.in_place ? CommBuffer() : comm.allocate(receive_bytes);
            char* base = static_cast<char*>(first.get());
            CollectiveCall call{s.collective,
                                base + l.send_offset * static_cast<std::int64_t>(width),
                                s.in_place ? base + l.receive_offset * static_cast<std::int64_t>(width)
                                           : static_cast<char*>(second.get()),
                                l.count,
                                s.dtype,
                                s.op,
                                0};
            comm.upload(const_cast<void*>(call.send), host.data(), send_bytes);

            const double seconds = secondsPerCallAcrossRanks(o, comm, call, mpi);

            const bool correct = resultCorrect(s, l, comm, call, host, corrupt, mpi);
            all_correct = all_correct && correct;

            const auto bytes = l.total * static_cast<std::int64_t>(width);
            const double algbw = static_cast<double>(bytes) / seconds / 1e9;
            if (writer) {
                namespace field = metric_stream::collective;
                nlohmann::json record = {
                    {metric_stream::kType, field::kRecord},
                    {field::kCollective, collectiveName(s.collective)},
                    {field::kBackend, comm.backend()},
                    {field::kDtype, dtypeName(s.dtype)},
                    {field::kInPlace, s.in_place},
                    {field::kElements, l.total},
                    {field::kBytes, bytes},
                    {field::kRanks, n},
                    {field::kRepetitions, o.repetitions},
                    {field::kTimeS, seconds},
                    {field::kAlgbwGbps, algbw},
                    {field::kBusbwGbps, algbw * busBandwidthFactor(collectiveName(s.collective), n)},
                    {field::kCorrect, correct}};
                if (isReduction(s.collective)) record[field::kOp] = reduceOpName(s.op);
                writer->write(record);
            }
        }
    }
    return all_correct;
}

} // namespace scalebench
