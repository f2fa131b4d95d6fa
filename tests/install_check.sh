#!/usr/bin/env bash
# cmake --install of a build into a temporary prefix, as a user's machine gets it: every file in its place, the
# desktop entry and the AppStream metainfo pass their validators, and the installed scalebench finds its plans and
# the engine's sources there, not in the source tree (a dry run of the installed quickstart shows the first-use build).
# Usage: install_check.sh BUILD_DIR
set -euo pipefail
build=$1
id=io.github.scalebench.Scalebench
prefix=$(mktemp -d /tmp/scalebench-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
fail() { printf 'install check: %s\n' "$*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for file in bin/scalebench share/applications/$id.desktop share/metainfo/$id.metainfo.xml \
  share/icons/hicolor/scalable/apps/$id.svg share/scalebench/plans/quickstart.toml share/scalebench/formats/nemo.toml \
  share/scalebench/engine-src/CMakeLists.txt share/scalebench/engine-src/cmake/LibTorch.cmake \
  share/scalebench/engine-src/protocol/engine_option_table.h share/scalebench/engine-src/trainers/main.cpp \
  share/doc/scalebench/copyright share/doc/scalebench/LICENSE; do
  [ -f "$prefix/$file" ] || fail "$file is not installed"
done
echo "installed into $prefix: $(find "$prefix" -type f | wc -l) files"

desktop-file-validate "$prefix/share/applications/$id.desktop" || fail "the desktop entry does not validate"
appstreamcli validate --no-net "$prefix/share/metainfo/$id.metainfo.xml" || fail "the metainfo does not validate"
# The licence, the same in the metainfo and the package's copyright file.
grep -q '<project_license>Apache-2.0</project_license>' "$prefix/share/metainfo/$id.metainfo.xml" ||
  fail "the metainfo names no project_license Apache-2.0"
grep -q '^License: Apache-2.0$' "$prefix/share/doc/scalebench/copyright" || fail "the copyright file names no Apache-2.0"

# The installed program, with nothing of the build tree on its path and a home of its own.
home="$prefix/home"
mkdir -p "$home"
installed() { env -i HOME="$home" PATH=/usr/bin:/bin "$prefix/bin/scalebench" "$@"; }
help=$(installed --help | tr -s ' \n' ' ')
sources="$prefix/share/scalebench/engine-src"
[[ "$help" == *"--engine-sources DIR"*"(default: $sources)"* ]] || fail "--help shows no default engine sources $sources"
dry_run=$(installed run "$prefix/share/scalebench/plans/quickstart.toml" --dry-run --out "$prefix/out")
echo "$dry_run"
[[ "$dry_run" == *"plan 'quickstart': 2 runs"* ]] || fail "the installed quickstart plan does not expand to its 2 runs"
[[ "$dry_run" == *"built on first use from $sources into $home/.cache/scalebench/engine/"* ]] ||
  fail "the dry run does not build the engine from the installed sources into the user's cache"
[[ "$dry_run" == *"-DSCALEBENCH_PYTHON=\"\$(command -v python3)\""* ]] || fail "the first-use build is not against python3"
echo "install check: ok"
