#!/usr/bin/env bash
# Installs what scalebench needs on Debian 12 (packages, the torch wheel for LibTorch, MLPerf's compliance checker)
# and says what it does.
# Idempotent: a second run finds everything in place and does no network work.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
venv="${SCALEBENCH_VENV:-$here/.venv}"
torch_version="2.11.0"          # C++ API of the GPU machine's PyTorch 2.11
# libtorch_cpu.so of torch 2.11 loads libcudart.so.13 and libcupti.so.13: the versions of torch's cuda-toolkit 13.0.2
cuda_runtime=(nvidia-cuda-runtime==13.0.96 nvidia-cuda-cupti==13.0.85)
# The cuda preset's engine links libtorch_cuda.so, which also loads libcufile.so.0 (cuda-toolkit 13.0.2's),
# libcusparseLt.so.0 and libnvshmem_host.so.3 (torch's pins): the CUDA 13.0 toolkit in /usr/local/cuda has the rest
# (cuBLAS, cuFFT, cuRAND, cuSPARSE, cuDNN 9.19, NCCL 2.28.9: the versions torch pins), but not these.
cuda_build=(nvidia-cufile==1.15.1.6 nvidia-cusparselt-cu13==0.8.0 nvidia-nvshmem-cu13==3.4.5)
# MLPerf's compliance checker, which the engine's MLLOG test runs (python -m mlperf_logging.compliance_checker).
# Its wheel also requires pandas, numpy and scipy, for the result summarizer and the RCP checker only; the checker
# and the mllog writer import nothing beyond the standard library but yaml.
mlperf_logging=(mlperf-logging==4.1.68 PyYAML==6.0.3)

say() { printf '[setup] %s\n' "$*"; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

packages=(
  build-essential cmake ninja-build pkg-config git python3 python3-venv clang-format
  libgloo-dev qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev fonts-dejavu-core xvfb xauth
  libssh-dev openmpi-bin libopenmpi-dev libsqlite3-dev sqlite3 zlib1g-dev
  libfmt-dev catch2 nlohmann-json3-dev libtomlplusplus-dev dataset-fashion-mnist
  slurmctld slurmd slurm-client munge openssh-server openssh-client iproute2
  # The install test's validators of the desktop entry and the AppStream metainfo (tests/install_check.sh).
  desktop-file-utils appstream
  # The fuzz preset: clang 14 and its compiler-rt (libclang_rt.fuzzer, asan, ubsan are libclang-rt-14-dev's);
  # llvm has /usr/bin/llvm-symbolizer, which sanitizer reports need for file:line in their stacks.
  clang-14 libclang-rt-14-dev llvm
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "Debian packages: all ${#packages[@]} present"
else
  command -v apt-get >/dev/null || fail "missing packages (${missing[*]}) and no apt-get: this set-up needs Debian 12"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || fail "missing packages (${missing[*]}); run as root or install sudo"
    sudo="sudo"
  fi
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || fail "python3 not found"
if [ ! -x "$venv/bin/python" ]; then
  say "creating virtual environment $venv"
  "$python" -m venv "$venv"
fi
# The requirements NAME==VERSION among the arguments that the virtual environment lacks, one a line.
absent_from_venv() {
  "$venv/bin/python" - "$@" <<'EOF'
import importlib.metadata as m, sys
for requirement in sys.argv[1:]:
    name, version = requirement.split("==")
    try:
        present = m.version(name) == version
    except m.PackageNotFoundError:
        present = False
    if not present:
        print(requirement)
EOF
}
# --no-deps throughout: torch's own requirements would pull in every CUDA wheel (GBs), most of which the toolkit in
# /usr/local/cuda already is; only the libraries that LibTorch loads and the toolkit lacks are installed.
if [ -z "$(absent_from_venv "torch==$torch_version")" ]; then
  say "torch $torch_version: present in $venv"
else
  say "installing torch $torch_version (LibTorch, ~530 MB) into $venv"
  "$venv/bin/pip" install -q --no-deps "torch==$torch_version" ||
    fail "the torch wheel could not be installed; see pip's message above"
fi
# install_absent WHAT DESCRIPTION REQUIREMENT...: the requirements the environment lacks, --no-deps, saying so.
install_absent() {
  local what=$1 description=$2
  shift 2
  mapfile -t absent < <(absent_from_venv "$@")
  if [ ${#absent[@]} -eq 0 ]; then
    say "$what: all $# present in $venv"
  else
    say "installing ${absent[*]} into $venv ($description)"
    "$venv/bin/pip" install -q --no-deps "${absent[@]}" || fail "$what could not be installed; see pip's message above"
  fi
}
# Downloads: the runtime ~12 MB, cufile 1.2 MB, cusparselt 170 MB, nvshmem 60 MB.
install_absent "the CUDA libraries for LibTorch that the toolkit lacks" "~250 MB" "${cuda_runtime[@]}" "${cuda_build[@]}"
install_absent "MLPerf's compliance checker" "mlperf-logging and its yaml reader, ~1 MB" "${mlperf_logging[@]}"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ -f "$site/torch/lib/libtorch_cpu.so" ] || fail "torch is installed but $site/torch/lib/libtorch_cpu.so is missing"
say "LibTorch: $site/torch"
