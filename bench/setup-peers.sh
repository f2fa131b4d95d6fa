#!/usr/bin/env bash
# Installs what the peer benchmarks need beside the engine: the pure-Python dependencies of the torch wheel in
# .venv (it was installed with --no-deps, so `import torch` fails without them). Idempotent: installs only what
# is missing, and says what it does.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${SCALEBENCH_PYTHON:-$root/.venv/bin/python}"

# torch 2.11's Requires-Dist, less triton (a GPU compiler) and the CUDA wheels that the CUDA 13.0 toolkit in
# /usr/local/cuda-13.0/lib already provides; torch._C still needs the three libraries that toolkit lacks
# (libcufile.so.0, libcusparseLt.so.0, libnvshmem_host.so.3), pinned as torch pins them (~230 MB).
requirements=("typing-extensions>=4.10.0" "sympy>=1.13.3" "networkx>=2.5.1" "jinja2" "fsspec>=0.8.5" "filelock"
              "nvidia-cufile==1.15.1.6" "nvidia-cusparselt-cu13==0.8.0" "nvidia-nvshmem-cu13==3.4.5")

if [[ ! -x "$python" ]]; then
    echo "[setup-peers] no Python at $python: run scripts/setup.sh first (it creates .venv with torch)" >&2
    exit 1
fi
if "$python" -c 'import warnings; warnings.simplefilter("ignore"); import torch, torch.distributed as d; assert d.is_gloo_available()' 2>/dev/null; then
    echo "[setup-peers] $python imports torch $("$python" -W ignore -c 'import torch; print(torch.__version__)') with gloo: nothing to install"
    exit 0
fi
echo "[setup-peers] installing torch's dependencies into $("$python" -c 'import sys; print(sys.prefix)'): ${requirements[*]}"
"$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
"$python" -c 'import warnings; warnings.simplefilter("ignore"); import torch, torch.distributed as d; assert d.is_gloo_available(), "torch has no gloo backend"; print("[setup-peers] torch", torch.__version__, "imports, gloo available")'
