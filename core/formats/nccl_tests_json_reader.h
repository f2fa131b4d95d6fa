// Reads nccl-tests' JSON file (-J FILE) as it grows, into records: each result as soon as its object closes.
#pragma once

#include "nccl_tests_output.h"
#include "output_reader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

// The JSON that src/util.cu writes (v2.17.3 on, format "version" 3): one object, written piece by piece
// without a newline while the test runs:
//   {"version":3,"start_time":"...","args":[...],"env":[...],"nccl_version":22703,"config":{...,"devices":
//   [...]},"results":[{"size":8,"count":2,"type":"float","redop":"sum","root":"    -1","out_of_place":
//   {"time":..,"alg_bw":..,"bus_bw":..,"nwrong":0.000000},"in_place":{...},"actual_iterations":20,
//   "experiment_name":""},...],"out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":
//   {"bandwidth":..,"okay":"unchecked"},"errors":[],"end_time":"..."}
// The bytes are scanned as they come (strings, nesting); the top-level values it needs and each result are
// kept until they close and then parsed. Records as the table's (NcclTestsTableReader): a header before the
// first result, two collective records per result, a summary at "average_bus_bandwidth". A result that
// cannot be read is broken; so is text outside the document, and, at the end, a document the run left
// unfinished (once, naming where it stopped).
class NcclTestsJsonReader : public OutputReader {
  public:
    explicit NcclTestsJsonReader(OutputContext context);

  protected:
    void readBytes(std::string_view bytes, std::vector<MetricRecord>& out) override;
    void readLine(std::string_view /*line*/, std::vector<MetricRecord>& /*out*/) override {}
    void readEnd(std::vector<MetricRecord>& out) override;

  private:
    void take(char c, std::vector<MetricRecord>& out);
    // A value begins at `c`: kept when it is one the reader needs.
    void valueBegins(char c);
    void valueEnds(std::vector<MetricRecord>& out);
    void readTopLevel(std::string_view key, std::string_view text, std::vector<MetricRecord>& out);
    void readResult(std::string_view text, std::vector<MetricRecord>& out);
    void strayTextEnds();

    OutputContext context_;
    NcclTestsRun run_;
    bool header_written_ = false;
    std::optional<std::int64_t> out_of_bounds_;
    std::int64_t results_read_ = 0; // of the document being read

    // Where the scan is.
    std::int64_t line_ = 1;  // of the byte being read
    std::int64_t depth_ = 0; // open objects and arrays; 1: inside the document
    bool in_string_ = false;
    bool escaped_ = false;
    std::int64_t document_line_ = 0;
    // Top level: the key being read or last read, and whether its value is due.
    std::string key_;
    bool reading_key_ = false;
    bool value_due_ = false;
    // Inside "results": whether the next element is due.
    bool in_results_ = false;
    bool element_due_ = false;
    // The value being kept: the document's (level 1) or a result (level 2).
    bool keeping_ = false;
    bool keeping_container_ = false;
    bool kept_too_long_ = false;
    std::int64_t kept_level_ = 0;
    std::int64_t kept_line_ = 0;
    std::string kept_;
    // Text outside the document, said once per stretch.
    bool in_stray_text_ = false;
    std::int64_t stray_line_ = 0;
    std::string stray_text_;
};

} // namespace scalebench
