// Reads nccl-tests' text output (all_reduce_perf and the others, on stdout) as it grows, into records.
#pragma once

#include "nccl_tests_output.h"
#include "output_reader.h"

#include <optional>
#include <string_view>
#include <vector>

namespace scalebench {

// nccl-tests' table, every layout from v2.0 to v2.19 (src/common.cu, src/util.cu from v2.17.3): the column
// header line says where each column is (redop and root, #wrong or the older error, cputime, the
// per-iteration columns of -I 1, the timestamp of -S 1). Each row gives a header record before the first
// one and two collective records (out-of-place, in-place); "# Avg bus bandwidth" gives a summary record. A
// new version, "Collective test starting" or "nThread" line after a run's rows begins another run. Lines
// that are not rows (comments, NCCL's INFO lines, a launcher's) are skipped; a line that begins with a number
// but is not a row of the table (cut short, mixed with another process's output) is broken.
class NcclTestsTableReader : public OutputReader {
  public:
    explicit NcclTestsTableReader(OutputContext context);

  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;

  private:
    // Where a row's fields are, from the column header line; -1 where the table has no such column.
    struct Layout {
        struct Half {
            int time = -1;
            int algbw = -1;
            int busbw = -1;
            int wrong = -1;
        };
        int size = 0;
        int count = 1;
        int type = 2;
        int redop = 3;
        int root = 4;
        Half out_of_place{5, 6, 7, 8};
        Half in_place{9, 10, 11, 12};
        int fields = 13;            // fields of a row (a timestamp is two)
        bool max_deviation = false; // "error" (before v2.13) instead of "#wrong"
        bool cpu_time = false;      // "cputime" instead of "time" (-C 1)
    };

    void readComment(std::string_view line, const std::vector<std::string_view>& words,
                     std::vector<MetricRecord>& out);
    void readRow(std::string_view line, std::vector<std::string_view> fields, std::vector<MetricRecord>& out);
    void readDevice(std::string_view line, const std::vector<std::string_view>& words);
    void readSettings(const std::vector<std::string_view>& words);
    static std::optional<Layout> layoutNamed(const std::vector<std::string_view>& names);
    // Ends the run read so far where `seen` says this line would be its second of a kind, or it has rows.
    void beginRunIf(bool seen);

    OutputContext context_;
    NcclTestsRun run_;
    Layout layout_;
    bool header_written_ = false;
    bool seen_version_ = false;
    bool seen_program_ = false;
    bool seen_settings_ = false;
    std::optional<std::int64_t> out_of_bounds_;
};

} // namespace scalebench
