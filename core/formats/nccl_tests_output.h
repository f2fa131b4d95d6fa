// What nccl-tests' text table and its JSON file say alike, and how both become metric records.
#pragma once

#include "metric_record.h"
#include "output_reader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

// One "#  Rank  0 Group  0 Pid  12345 on  host device  0 [0000:07:00] NVIDIA H100" line, or one entry of the
// JSON's config.devices. Group and pid are missing before v2.13 (group) and v2.0 (pid).
struct NcclTestsDevice {
    int rank = 0;
    std::optional<int> group;
    std::optional<std::int64_t> pid;
    std::string host;
    int device = 0;     // the CUDA device on its host
    std::string bus_id; // "0000:07:00" (v2.14 on), "0x07" before
    std::string gpu;    // "NVIDIA H100 80GB HBM3"
};

// The run's settings as nccl-tests prints them ("# nThread 1 nGpus 8 minBytes 8 ..." or the JSON's config).
struct NcclTestsSettings {
    std::optional<std::int64_t> threads;         // nThread: threads per process
    std::optional<std::int64_t> gpus_per_thread; // nGpus
    std::optional<std::int64_t> min_bytes;
    std::optional<std::int64_t> max_bytes;   // lowered where nccl-tests says it reduced it
    std::optional<std::int64_t> step_factor; // -f: sizes multiply
    std::optional<std::int64_t> step_bytes;  // -i: sizes add
    std::optional<std::int64_t> warmup_iterations;
    std::optional<std::int64_t> iterations; // timed iterations of each size
    std::optional<std::int64_t> aggregated_iterations;
    std::optional<std::int64_t> validation; // -c: 0 when results are not checked
    std::optional<std::int64_t> cuda_graph; // -G: graph launches (0: none)
    bool cpu_time = false;                  // -C 1: the time columns are CPU time
};

// What the output says about the run before its first result.
struct NcclTestsRun {
    std::string program;      // "all_reduce_perf", as the output names it (else the OutputContext's)
    std::string tool_version; // "2.19.6" (the text output from v2.17.3 on; the JSON has none)
    std::string tool_commit;  // "b4d5bee" where the version line has one
    std::optional<std::int64_t> nccl_version_code;   // the NCCL library that ran: 22703 for 2.27.3
    std::optional<std::int64_t> json_format_version; // the JSON file's "version"
    NcclTestsSettings settings;
    std::vector<NcclTestsDevice> devices; // in the order printed, one per rank number
    // Ranks the run had where the output says it otherwise than by listing them all (the JSON lists one
    // device per process).
    std::optional<int> ranks;
};

// One half of a result row: out-of-place or in-place.
struct NcclTestsMeasurement {
    double time_us = 0;
    double algbw_gbps = 0;
    double busbw_gbps = 0;
    // #wrong: elements that differed from the expected result; none when nccl-tests did not check (-c 0
    // prints N/A). Before v2.13 the column was "error", the largest deviation, and max_deviation is set.
    std::optional<double> wrong;
    bool max_deviation = false;
};

// One result row: a message size of one type, reduction and root, both placements.
struct NcclTestsRow {
    std::int64_t size = 0;  // bytes: nccl-tests' max(send, receive) buffer
    std::int64_t count = 0; // elements nccl-tests passes to the call (one rank's block for all-gather, ...)
    std::string type;       // as printed: float, half, bfloat16, ...
    std::string redop;      // as printed: sum, prod, ..., none
    std::optional<NcclTestsMeasurement> out_of_place; // the JSON writes null where it was not run
    NcclTestsMeasurement in_place;
    std::optional<std::int64_t> iterations; // the JSON's actual_iterations
};

// scalebench's name of the collective an nccl-tests program runs: all_reduce_perf (or all_reduce_perf_mpi,
// or a path to it) is allreduce; a program it does not know keeps its name without _perf and underscores.
std::string ncclTestsCollective(std::string_view program);
// scalebench's name of an nccl-tests type: float is float32, half float16, double float64; others as printed.
std::string ncclTestsDtype(std::string_view type);
// "2.27.3" for NCCL_VERSION_CODE 22703 (1000s before NCCL 2.9: 2804 is 2.8.4).
std::string ncclVersionName(std::int64_t code);
// The ranks the run had: its devices, the JSON's count, else what the launcher started.
int ncclTestsRanks(const NcclTestsRun& run, const OutputContext& context);

// The header record of a run: workload "nccl-tests", its json a metric-stream header record.
HeaderRecord ncclTestsHeader(const NcclTestsRun& run, const OutputContext& context);
// The two collective records of a row (out-of-place, then in-place; the in-place one alone where the row
// has no out-of-place half). Throws std::runtime_error naming a value out of its range (a negative
// time, an infinite bandwidth, 1e308 wrong elements): the readers count that result broken.
std::vector<CollectiveRecord> ncclTestsRecords(const NcclTestsRow& row, const NcclTestsRun& run,
                                               const OutputContext& context);
// The summary record that closes a run: the "Avg bus bandwidth" and the out-of-bounds count, in its json
// (a metric-stream summary record with steps 0).
SummaryRecord ncclTestsSummary(double avg_busbw_gbps, std::optional<std::int64_t> out_of_bounds);

} // namespace scalebench
