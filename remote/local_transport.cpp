// LocalTransport: runs commands and reads files on this machine.
#include "local_transport.h"

#include "child_process.h"
#include "scratch_folder.h"

#include <fstream>
#include <sstream>

namespace scalebench {
namespace {
std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

} // namespace

CommandResult LocalTransport::run(const std::string& command) {
    ScratchFolder scratch("scalebench-cmd");
    ChildProcess shell({"/bin/sh", "-c", command}, scratch.path() / "out", scratch.path() / "err");
    const ChildExit exit = shell.wait();
    return {exit.status, slurp(scratch.path() / "out"), slurp(scratch.path() / "err")};
}

void LocalTransport::upload(const std::filesystem::path& local, const std::string& remote) {
    std::error_code error;
    std::filesystem::copy_file(local, remote, std::filesystem::copy_options::overwrite_existing, error);
    if (error)
        throw TransportError("cannot copy " + local.string() + " to " + remote + ": " + error.message());
}

void LocalTransport::download(const std::string& remote, const std::filesystem::path& local) {
    upload(remote, local.string());
}

std::optional<std::string> LocalTransport::readFrom(const std::string& path, std::int64_t offset,
                                                    std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    in.seekg(offset);
    std::string bytes(max_bytes, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(max_bytes));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

} // namespace scalebench
