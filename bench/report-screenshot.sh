#!/usr/bin/env bash
# The README's report screenshot: runs the quickstart plan (or takes a stored session), writes its HTML report
# with scalebench report, and renders the page with headless Chromium to docs/images/report.png.
#   bench/report-screenshot.sh                   run resources/plans/quickstart.toml into a fresh store first
#   bench/report-screenshot.sh DB SESSION        report SESSION (id or name) of the store DB instead
#   REPORT_BASELINE=S                            report --baseline S (an id, a name, or last)
#   SCALEBENCH_ENGINE=PATH                       the engine the quickstart runs (default: the build's)
# Needs build/release/app/scalebench (and for the quickstart its engine); installs Debian's chromium where it is
# missing (apt-get, through sudo when not root), saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${SCALEBENCH_CLI:-build/release/app/scalebench}
png=${REPORT_PNG:-docs/images/report.png}
[ -x "$cli" ] || { echo "[report] $cli not built: ninja -C build/release scalebench" >&2; exit 1; }
if ! command -v chromium >/dev/null; then
  command -v apt-get >/dev/null || { echo "[report] chromium not found and no apt-get to install it" >&2; exit 1; }
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "[report] chromium not found; run as root or install sudo" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "[report] installing Debian's chromium (headless screenshots; ~100 MB with its libraries)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
  echo "[report] installed: $(dpkg-query -W -f='${Package} ${Version}' chromium)"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 2 ]; then
  db=$1
  session=$2
else
  db=$work/sessions.db
  session=quickstart
  echo "[report] running resources/plans/quickstart.toml (about two minutes)"
  "$cli" run resources/plans/quickstart.toml --db "$db" --out "$work/out" ${SCALEBENCH_ENGINE:+--engine "$SCALEBENCH_ENGINE"}
fi
html=$work/report.html
"$cli" report "$session" --db "$db" -o "$html" ${REPORT_BASELINE:+--baseline "$REPORT_BASELINE"}
echo "[report] $html: $(stat -c %s "$html") bytes"
[ -z "${REPORT_HTML:-}" ] || cp "$html" "$REPORT_HTML"
mkdir -p "$(dirname "$png")"
# Chromium's own profile and crash folders go to the scratch folder; the page reaches nothing outside itself.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/chromium" \
  --screenshot="$png" --window-size=1280,2000 "file://$html" 2>"$work/chromium.log" ||
  { cat "$work/chromium.log" >&2; exit 1; }
echo "[report] $png: $(stat -c %s "$png") bytes"
