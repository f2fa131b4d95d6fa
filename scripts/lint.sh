#!/usr/bin/env bash
# The format check: every tracked C++ file (.h, .cpp) as the repository's .clang-format writes it. Prints the
# files that differ and how to fix them, and exits 1 when there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "[lint] clang-format not found: run scripts/setup.sh" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.h' '*.cpp')
echo "[lint] checking the format of ${#files[@]} C++ files with $(clang-format --version | head -1)"
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf '[lint] not formatted: %s\n' "${unformatted[@]}" >&2
  echo "[lint] ${#unformatted[@]} file(s) differ from .clang-format: clang-format -i FILE..." >&2
  exit 1
fi
echo "[lint] all ${#files[@]} files formatted"
