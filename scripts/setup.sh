#!/usr/bin/env bash
# Installs what scalebench needs on Debian 12 and says what it does. Two profiles:
#   scripts/setup.sh quickstart   what `make quickstart` runs: the console's and the engine's Debian packages, the
#                                 torch wheel (LibTorch) with the two CUDA runtime wheels it loads; nothing else
#   scripts/setup.sh test         (the default) all of that, and what `make test` and `make lint` need besides:
#                                 the test cluster's daemons (installed, never enabled or started as services: the
#                                 test fixture starts its own by PID), the fuzzing compiler, the install check's
#                                 validators, the libraries of LibTorch's CUDA build, a CUDA 13.0 toolkit when this
#                                 machine has none (scripts/cuda-toolkit.sh), MLPerf's compliance checker
# Idempotent: a second run finds everything in place and does no network work.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:-test}
case "$profile" in
  quickstart | test) ;;
  *) printf '[setup] error: unknown profile "%s" (quickstart or test)\n' "$profile" >&2; exit 2 ;;
esac
venv="${SCALEBENCH_VENV:-$here/.venv}"
torch_version="2.11.0"          # C++ API of the GPU machine's PyTorch 2.11
# libtorch_cpu.so of torch 2.11 loads libcudart.so.13 and libcupti.so.13: the versions of torch's cuda-toolkit 13.0.2
cuda_runtime=(nvidia-cuda-runtime==13.0.96 nvidia-cuda-cupti==13.0.85)
# The cuda preset's engine links libtorch_cuda.so, which also loads libcufile.so.0 (cuda-toolkit 13.0.2's),
# libcusparseLt.so.0 and libnvshmem_host.so.3 (torch's pins): the CUDA 13.0 toolkit has the rest (cuBLAS, cuFFT,
# cuRAND, cuSPARSE, cuDNN 9.19, NCCL 2.28.9: the versions torch pins), but not these.
cuda_build=(nvidia-cufile==1.15.1.6 nvidia-cusparselt-cu13==0.8.0 nvidia-nvshmem-cu13==3.4.5)
# MLPerf's compliance checker, which the engine's MLLOG test runs (python -m mlperf_logging.compliance_checker).
# Its wheel also requires pandas, numpy and scipy, for the result summarizer and the RCP checker only; the checker
# and the mllog writer import nothing beyond the standard library but yaml.
mlperf_logging=(mlperf-logging==4.1.68 PyYAML==6.0.3)
# MLPerf's result summarizer, which the import test runs on public result trees to compare every score
# (python -m mlperf_logging.result_summarizer): pandas and what it needs, numpy, scipy. For make test only.
mlperf_summarizer=(pandas==3.1.1 numpy==2.4.6 scipy==1.17.1 python-dateutil==4.0.0 tzdata==2026.6)
# Where the cuda preset finds its toolkit: this machine's, else the one scripts/cuda-toolkit.sh makes (Makefile's
# CUDA_ROOT says the same).
system_cuda=/usr/local/cuda
project_cuda=$here/.cuda

say() { printf '[setup] %s\n' "$*"; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# The console, the engine, and the quickstart's data (Fashion-MNIST); ccache so that no build is done twice.
packages=(
  build-essential cmake ninja-build pkg-config git python3 python3-venv ccache
  libgloo-dev qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev fonts-dejavu-core
  libssh-dev openmpi-bin libopenmpi-dev libsqlite3-dev zlib1g-dev
  libfmt-dev catch2 nlohmann-json3-dev libtomlplusplus-dev dataset-fashion-mnist
)
# The test cluster's daemons (tests/cluster/cluster_fixture.sh starts its own, by PID).
daemons=(slurmctld slurmd slurm-client munge openssh-server)
declare -A service_of=([slurmctld]=slurmctld [slurmd]=slurmd [munge]=munge [openssh-server]=ssh)
if [ "$profile" = test ]; then
  packages+=(
    clang-format sqlite3 xvfb xauth openssh-client iproute2 "${daemons[@]}"
    # The install test's validators of the desktop entry and the AppStream metainfo (tests/install_check.sh).
    desktop-file-utils appstream
    # The fuzz preset: clang 14 and its compiler-rt (libclang_rt.fuzzer, asan, ubsan are libclang-rt-14-dev's);
    # llvm has /usr/bin/llvm-symbolizer, which sanitizer reports need for file:line in their stacks.
    clang-14 libclang-rt-14-dev llvm
  )
fi

# The test cluster's daemons and its user run from this clone (tests/cluster/cluster_fixture.sh): every folder above
# it must be searchable by all and readable by others (munged wants execute for user, group and others). Debian 12
# makes new home folders 0700: say so now, not when the cluster's tests start a quarter of an hour later.
if [ "$profile" = test ]; then
  up=$here
  while [ "$up" != / ]; do
    up=$(dirname "$up")
    [ "$(($(stat -c '%#a' "$up") & 0115))" -eq $((0115)) ] ||
      fail "$up is not searchable by all and readable by others, which the test cluster's daemons (munged wants execute for user, group and others) and user need to reach this clone ($here): run 'chmod a+rx $up', or clone into a folder all can reach (/srv, /opt)"
  done
fi

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
  # The daemons this run installs stay off: no service started while installing (policy-rc.d, unless the machine
  # has its own), none enabled afterwards. A daemon that was already installed is left as it was.
  new_daemons=() # packages
  for p in "${missing[@]}"; do
    [ -z "${service_of[$p]:-}" ] || new_daemons+=("$p")
  done
  policy=/usr/sbin/policy-rc.d
  own_policy=""
  if [ ${#new_daemons[@]} -gt 0 ] && [ ! -e $policy ]; then
    printf '#!/bin/sh\n# scripts/setup.sh: no service starts while it installs packages\nexit 101\n' | $sudo tee $policy >/dev/null
    $sudo chmod +x $policy
    own_policy=$policy
    trap '$sudo rm -f "$own_policy"' EXIT
  fi
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$own_policy" ]; then $sudo rm -f "$own_policy"; trap - EXIT; fi
  if [ ${#new_daemons[@]} -gt 0 ]; then
    say "the test cluster's daemons, installed now, are not system services: disabling ${new_daemons[*]}"
    for package in "${new_daemons[@]}"; do
      service=${service_of[$package]}.service
      if command -v systemctl >/dev/null; then
        $sudo systemctl disable --quiet "$service" || fail "systemctl disable $service failed"
      else # no systemd here (a container, a chroot): the package's own helper removes the links it made
        $sudo env DPKG_MAINTSCRIPT_PACKAGE="$package" DPKG_MAINTSCRIPT_NAME=postinst \
          deb-systemd-helper disable "$service" || fail "deb-systemd-helper disable $service failed"
      fi
    done
  fi
fi

python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || fail "python3 not found"
if [ ! -x "$venv/bin/python" ]; then
  say "creating virtual environment $venv"
  "$python" -m venv "$venv"
fi
# The requirements NAME==VERSION among the arguments that the virtual environment lacks, one a line.
absent_from_venv() { "$venv/bin/python" "$here/scripts/absent_requirements.py" "$@"; }
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
# Downloads: the runtime ~12 MB.
install_absent "the CUDA runtime libraries libtorch_cpu.so loads" "~12 MB" "${cuda_runtime[@]}"
if [ "$profile" = test ]; then
  # Downloads: cufile 1.2 MB, cusparselt 170 MB, nvshmem 60 MB.
  install_absent "the CUDA libraries for LibTorch that the toolkit lacks" "~230 MB" "${cuda_build[@]}"
  install_absent "MLPerf's compliance checker" "mlperf-logging and its yaml reader, ~1 MB" "${mlperf_logging[@]}"
  # Downloads: pandas 12 MB, numpy 17 MB, scipy 36 MB.
  install_absent "MLPerf's result summarizer's libraries" "pandas, numpy, scipy, ~65 MB" "${mlperf_summarizer[@]}"
  if [ -x "$system_cuda/bin/nvcc" ]; then
    say "CUDA toolkit: $system_cuda ($("$system_cuda/bin/nvcc" --version | grep -o 'release [0-9.]*'))"
  else
    "$here/scripts/cuda-toolkit.sh" "$venv" "$project_cuda"
  fi
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ -f "$site/torch/lib/libtorch_cpu.so" ] || fail "torch is installed but $site/torch/lib/libtorch_cpu.so is missing"
say "LibTorch: $site/torch"
