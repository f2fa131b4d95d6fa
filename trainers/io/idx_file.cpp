// Reader of the IDX format of (Fashion-)MNIST, plain or gzip-compressed: dimensions and unsigned bytes.
#include "idx_file.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <zlib.h>

namespace scalebench {
namespace {

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

constexpr std::uint8_t kUnsignedByte = 0x08; // IDX type code
constexpr std::int64_t kMaxElements = std::int64_t(1) << 32;

} // namespace

IdxArray readIdxFile(const std::filesystem::path& path) {
    auto fail = [&](const std::string& what) { throw std::runtime_error(path.string() + ": " + what); };
    GzFile file(gzopen(path.c_str(), "rb")); // reads plain files too
    if (!file) fail("cannot open");
    auto read = [&](void* into, std::size_t bytes, const char* what) {
        const int got = gzread(file.get(), into, static_cast<unsigned>(bytes));
        if (got < 0 || static_cast<std::size_t>(got) != bytes) fail(std::string("truncated ") + what);
    };
    std::uint8_t magic[4];
    read(magic, 4, "header");
    if (magic[0] != 0 || magic[1] != 0) fail("not an IDX file (bad magic number)");
    if (magic[2] != kUnsignedByte)
        fail("IDX element type " + std::to_string(magic[2]) + " is not unsigned byte");
    IdxArray array;
    std::int64_t count = 1;
    for (int d = 0; d < magic[3]; ++d) {
        std::uint8_t b[4];
        read(b, 4, "dimensions");
        const std::int64_t size = (std::int64_t(b[0]) << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
        array.dims.push_back(size);
        count *= size;
        if (count > kMaxElements) fail("implausibly large dimensions");
    }
    if (array.dims.empty()) fail("IDX file without dimensions");
    array.data.resize(static_cast<std::size_t>(count));
    read(array.data.data(), array.data.size(), "data");
    return array;
}

} // namespace scalebench
