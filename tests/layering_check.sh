#!/usr/bin/env bash
# The layering rules, checked on the sources' include lines: ui/ reaches no header of remote/, directly or through
# the control/ headers it includes, and not the session store's (widgets never read SQLite: they get stored rows
# from the loader); core/ and remote/ include no Qt header; trainers/ includes neither Qt nor core/. Prints every broken rule with the chain of includes that breaks it, and exits 1 if there is one.
#   tests/layering_check.sh [SOURCE_DIR]   (default: the folder above this script)
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
failures=0

fail() {
    echo "layering: $*"
    failures=$((failures + 1))
}

# The quoted includes of a file, one a line ("x.h" from #include "x.h").
quoted_includes() {
    sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$1"
}

# Files of a folder that the compiler reads (sources and headers, in subfolders too).
sources_of() {
    find "$1" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.cu' \) | sort
}

# Follows the quoted includes of `file` within control/ (the chain so far in `chain`) and reports each one that
# names a header of remote/. `seen` holds the control headers already followed from the current ui file.
declare -A seen
follow_control() {
    local file=$1 chain=$2 include name
    while IFS= read -r include; do
        name=$(basename "$include")
        if [[ -f remote/$name ]]; then
            fail "ui reaches remote's headers: $chain -> remote/$name"
        elif [[ -f control/$name && -z ${seen[$name]:-} ]]; then
            seen[$name]=1
            follow_control "control/$name" "$chain -> control/$name"
        fi
    done < <(quoted_includes "$file")
}

# 1. ui/ includes no header of remote/, directly or through control/'s headers.
while IFS= read -r file; do
    seen=()
    follow_control "$file" "$file"
done < <(sources_of ui)

# 2. core/, plot/ and remote/ are plain C++: no Qt header (<QObject>, <QtCore/...>).
qt_include='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/[^>"]*)[>"]'
for folder in core plot remote trainers; do
    while IFS= read -r hit; do
        fail "$folder/ includes a Qt header: $hit"
    done < <(sources_of "$folder" | xargs grep -nE "$qt_include" /dev/null || true)
done

# 3. trainers/ meets the console only through the metrics stream format (protocol/): no header of core/.
while IFS= read -r file; do
    while IFS= read -r include; do
        name=$(basename "$include")
        if [[ -f core/$name ]]; then fail "trainers/ includes a header of core/: $file -> core/$name"; fi
    done < <(quoted_includes "$file")
done < <(sources_of trainers)

# 4. ui/ includes neither the session store's header nor SQLite's, directly or through control/'s and core/'s
# headers: the loader (control/) reads the store on its own thread and hands the views stored rows.
declare -A visited
follow_store() {
    local file=$1 chain=$2 include name
    while IFS= read -r include; do
        name=$(basename "$include")
        if [[ $name == session_store.h || $name == sqlite_handle.h || $name == sqlite3.h ]]; then
            fail "ui reaches the session store: $chain -> $name"
        elif [[ -z ${visited[$name]:-} ]]; then
            visited[$name]=1
            for folder in control core plot protocol; do
                if [[ -f $folder/$name ]]; then follow_store "$folder/$name" "$chain -> $folder/$name"; fi
            done
        fi
    done < <(quoted_includes "$file"; sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<(sqlite3\.h)>.*/\1/p' "$file")
}
while IFS= read -r file; do
    visited=()
    follow_store "$file" "$file"
done < <(sources_of ui)

if ((failures > 0)); then
    echo "layering: $failures broken rule(s)"
    exit 1
fi
echo "layering: ui reaches no remote/ header and not the session store; core/, plot/, remote/ and trainers/ include" \
    "no Qt; trainers/ no core/"
