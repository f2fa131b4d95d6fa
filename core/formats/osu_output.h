// Reads OSU Micro-Benchmarks' blocking collective latency tables (osu_allreduce, osu_allgather, ...) as the
// collective records of the metric stream, sizes and bandwidths converted to nccl-tests' convention.
#pragma once

#include "output_reader.h"

#include <string>
#include <vector>

namespace scalebench {

// One OSU collective benchmark's stdout (OMB 7.x, and 5.x whose header lines differ): a HeaderRecord before
// the first row of each run, then one CollectiveRecord per row of its table. OSU prints neither the rank
// count nor, before OMB 7.1, the datatype: the ranks are the launcher's (OutputContext::ranks), and without a
// "# Datatype:" line the datatype is the one that OMB version's source fixes for the benchmark.
class OsuLatencyReader : public OutputReader {
  public:
    explicit OsuLatencyReader(OutputContext context);

  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;

  private:
    void readBanner(std::string_view banner);
    void readDatatype(std::string_view mpi_name);
    void readColumns(std::string_view header);
    // Fills `record` from a row of the table; returns why it could not, or "" where it could.
    std::string readRow(std::string_view row, CollectiveRecord& record);
    HeaderRecord header(const CollectiveRecord& first) const;

    OutputContext context_;
    std::string collective_;           // scalebench's name ("allreduce"); "" while no name is known
    std::string benchmark_;            // the banner without '#' and version: "OSU MPI Allreduce Latency Test"
    std::string tool_version_;         // "7.4"; "" before a banner, or where it has none
    std::string mpi_dtype_;            // the datatype's MPI name, "MPI_CHAR"; "" where OSU prints none
    std::vector<std::string> columns_; // the table's column names: "Size", "Avg Latency(us)", ...
    int decimals_ = -1;                // of the times in this table's rows; -1 before its first row
    bool header_written_ = false;      // this run's HeaderRecord went out
};

} // namespace scalebench
