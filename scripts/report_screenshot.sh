#!/usr/bin/env bash
# Renders a `warpsim compare` report the way a reader sees it: headless Chromium, a window
# 1400 px wide, the first HEIGHT px (default 3000) of the page saved as a PNG.
#
#   scripts/report_screenshot.sh [REPORT.html] [OUT.png]
#
# REPORT.html defaults to results/compare/report.html, OUT.png to report.png beside it.
# Needs Chromium (Debian: apt-get install -y chromium); exits with status 77 without it.
# HEIGHT=8000 scripts/report_screenshot.sh … captures more of the page.
set -euo pipefail
report=${1:-results/compare/report.html}
[ -f "$report" ] || { echo "report_screenshot: no report at $report" >&2; exit 1; }
report=$(realpath "$report")
out=${2:-$(dirname "$report")/report.png}
out=$(realpath -m "$out")
height=${HEIGHT:-3000}

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "report_screenshot: Chromium not found (Debian: apt-get install -y chromium)" >&2
  exit 77
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$profile" --window-size=1400,"$height" --screenshot="$out" "file://$report" \
  >"$profile/log" 2>&1 || { cat "$profile/log" >&2; exit 1; }
[ -s "$out" ] || { echo "report_screenshot: Chromium wrote no screenshot" >&2; cat "$profile/log" >&2; exit 1; }
echo "$out"
