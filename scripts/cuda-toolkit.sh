#!/usr/bin/env bash
# The CUDA 13.0 toolkit that the `cuda` preset builds against, made from PyPI's nvidia wheels when this machine has
# none (no nvcc in /usr/local/cuda): the wheels, pinned, go into the project's virtual environment, where LibTorch's
# own RPATH ($ORIGIN/../../nvidia/{cu13,cudnn,nccl}/lib) finds them at run time, and ROOT becomes a toolkit folder
# of links into them in the layout CMake's FindCUDAToolkit and nvcc expect (bin, include, lib, lib64, nvvm,
# targets/x86_64-linux). These are the wheels, and versions, this project's development machines' toolkit was made
# from (torch 2.11's pins: cuDNN 9.19, NCCL 2.28.9).
# Usage: scripts/cuda-toolkit.sh VENV ROOT. Idempotent; says what it does. Downloads ~2.3 GB the first time.
set -euo pipefail

venv=$1
root=$2
wheels=(
  nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-cccl==13.0.85
  nvidia-cuda-runtime==13.0.96 nvidia-cuda-cupti==13.0.85 nvidia-cuda-nvrtc==13.0.88 nvidia-nvjitlink==13.0.88
  nvidia-cuda-culibos==13.0.85 nvidia-cuda-cuxxfilt==13.0.85 nvidia-cuda-profiler-api==13.0.85 nvidia-nvtx==13.0.85
  nvidia-cublas==13.1.0.3 nvidia-cufft==12.0.0.61 nvidia-curand==10.4.0.35 nvidia-cusolver==12.0.4.66
  nvidia-cusparse==12.6.3.3 nvidia-cudnn-cu13==9.19.0.56 nvidia-nccl-cu13==2.28.9
)

say() { printf '[setup] %s\n' "$*"; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

absent=$("$venv/bin/python" "$(dirname "$0")/absent_requirements.py" "${wheels[@]}")
if [ -z "$absent" ]; then
  say "CUDA 13.0 toolkit wheels: all ${#wheels[@]} present in $venv"
else
  # shellcheck disable=SC2086 # one requirement a line
  say "installing the CUDA 13.0 toolkit from PyPI's nvidia wheels into $venv (~2.3 GB): $(echo $absent)"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q --no-deps $absent || fail "the CUDA toolkit wheels could not be installed; see pip's message above"
fi

site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
nvidia=$site/nvidia
[ -x "$nvidia/cu13/bin/nvcc" ] || fail "the nvcc wheel is installed but $nvidia/cu13/bin/nvcc is missing"

# The toolkit folder: folders of links, entry by entry: bin from cu13 (a real folder, because nvcc finds its
# libraries at bin/../lib64, which through a linked bin would be the wheel's own folder), include and lib merged
# from cu13, cudnn and nccl; nvvm linked whole; the unversioned names the linker asks for (libcublas.so) beside the
# wheels' versioned ones.
rm -rf "$root.new"
mkdir -p "$root.new/bin" "$root.new/include" "$root.new/lib" "$root.new/targets/x86_64-linux"
ln -s "$nvidia/cu13/nvvm" "$root.new/nvvm"
for part in cu13 cudnn nccl; do
  for kind in bin include lib; do
    [ -d "$nvidia/$part/$kind" ] || continue
    for entry in "$nvidia/$part/$kind"/*; do
      [ -e "$root.new/$kind/$(basename "$entry")" ] || ln -s "$entry" "$root.new/$kind/$(basename "$entry")"
    done
  done
done
for versioned in "$root.new"/lib/lib*.so.*; do
  name=$(basename "$versioned")
  unversioned=${name%%.so.*}.so
  [ -e "$root.new/lib/$unversioned" ] || ln -s "$name" "$root.new/lib/$unversioned"
done
# The link-time libcuda.so that NVIDIA's toolkit ships in lib64/stubs and no wheel carries: LibTorch's CMake links
# caffe2::cuda to CUDA::cuda_driver (share/cmake/Caffe2/public/cuda.cmake), which FindCUDAToolkit defines only
# where it finds lib/stubs/libcuda.so. At run time the GPU machine's driver is loaded, never this file; the engine
# calls no driver function (its ELF has no libcuda.so.1 in NEEDED), so a library without symbols serves the link.
mkdir -p "$root.new/lib/stubs"
cc -shared -o "$root.new/lib/stubs/libcuda.so" -x c /dev/null
ln -s lib "$root.new/lib64"
ln -s ../../include "$root.new/targets/x86_64-linux/include"
ln -s ../../lib "$root.new/targets/x86_64-linux/lib"
rm -rf "$root"
mv "$root.new" "$root"
"$root/bin/nvcc" --version | grep -q 'release 13.0' || fail "$root/bin/nvcc is not CUDA 13.0"
say "CUDA toolkit: $root (links into $nvidia)"
