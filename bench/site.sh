#!/usr/bin/env bash
# The site benchmark: a Claude Code store of 2,000 sessions (about 2 GB),
# made in a temporary directory by copying the real sessions of
# $SESSTOOL_SHARED/real-world/claude under new ids (bench/gen claude-store;
# never committed, removed afterwards unless KEEP=1), exported as a site:
#   1. the first export: wall and CPU time, peak RSS (/usr/bin/time -v);
#   2. a re-export with nothing changed;
#   3. a re-export after one session changed (a line appended): its time
#      and how many files it rewrote, counted by modification time.
# It fails only on errors, never on timing; the targets are printed.
#
#   SESSTOOL_SHARED=/work/shared bash bench/site.sh
#   SESSIONS=200 SIZE=200MB bash bench/site.sh     # a smaller store
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
shared="${SESSTOOL_SHARED:-$root/../shared}"
src="$shared/real-world/claude"
[ -d "$src" ] || { echo "bench: $src not found (set SESSTOOL_SHARED)" >&2; exit 1; }
SESSIONS="${SESSIONS:-2000}"
SIZE="${SIZE:-2GB}"
die() { echo "bench: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sesstool-site-bench.XXXXXX") || die "mktemp"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sesstool" . || die "build sesstool"
go build -o "$tmp/gen" ./bench/gen || die "build gen"
st="$tmp/sesstool"
store="$tmp/store" site="$tmp/site"
echo "generating $SESSIONS sessions, $SIZE, in $store" >&2
"$tmp/gen" claude-store -sessions "$SESSIONS" -size "$SIZE" -o "$store" "$src" >&2 || die "gen"
bytes=$(du -sb "$store" | cut -f1)
"$st" validate "$store" >/dev/null 2>"$tmp/validate.err" || { tail -3 "$tmp/validate.err" >&2; die "the generated store does not validate"; }
cat "$store"/projects/*/*.jsonl >/dev/null # from the page cache, as every run after the first

# run LABEL CMD...: one timed run; prints "wall cpu rssMiB written"
run() {
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  if ! /usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
    echo "bench: $label failed:" >&2; tail -5 "$tmp/stderr" >&2; return 1 # no line read: the caller dies
  fi
  t1=$(date +%s.%N)
  local user sys rss
  user=$(awk -F': ' '/User time/ {print $2}' "$tmp/time")
  sys=$(awk -F': ' '/System time/ {print $2}' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$tmp/time")
  awk -v a="$t0" -v b="$t1" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN { printf "%.2f %.2f %.0f\n", b - a, u + s, r / 1024 }'
}
written() { find "$site" -type f -newer "$tmp/mark" | wc -l; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
touch "$tmp/mark"
read -r w1 c1 r1 < <(run "first export" "$st" export html -o "$site" "$store")
[ -n "${w1:-}" ] || die "first export failed"
n1=$(written); s1=$(tail -1 "$tmp/stderr" | sed "s|$tmp/||")
sleep 1; touch "$tmp/mark"; sleep 1
read -r w2 c2 r2 < <(run "re-export, nothing changed" "$st" export html -o "$site" "$store")
[ -n "${w2:-}" ] || die "re-export failed"
n2=$(written); s2=$(tail -1 "$tmp/stderr" | sed "s|$tmp/||")
one=$(grep -l '"role":"user","content":"' "$store"/projects/*/*.jsonl | head -1)
[ -n "$one" ] || die "no session with a text prompt to change"
# the first prompt edited: the same session, other bytes
perl -pi -e 'if (!$done && s/("role":"user","content":")/${1}Edited: /) { $done = 1 }' "$one"
sleep 1; touch "$tmp/mark"; sleep 1
read -r w3 c3 r3 < <(run "re-export, one changed" "$st" export html -o "$site" "$store")
[ -n "${w3:-}" ] || die "re-export after a change failed"
n3=$(written); s3=$(tail -1 "$tmp/stderr" | sed "s|$tmp/||")
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "store: $SESSIONS Claude Code sessions, $((bytes / 1000000)) MB; load average before $load0, after $load1; $(nproc) cores"
echo
echo "| run | wall | CPU | peak RSS | files written | sesstool says |"
echo "|---|---|---|---|---|---|"
echo "| first export | ${w1} s | ${c1} s | ${r1} MiB | $n1 | $s1 |"
echo "| re-export, nothing changed | ${w2} s | ${c2} s | ${r2} MiB | $n2 | $s2 |"
echo "| re-export, one session changed | ${w3} s | ${c3} s | ${r3} MiB | $n3 | $s3 |"
echo
awk -v w1="$w1" -v r1="$r1" -v w3="$w3" -v n3="$n3" 'BEGIN {
  printf "| target | measured | met |\n|---|---|---|\n"
  printf "| first export at most 60 s | %.1f s | %s |\n", w1, w1 <= 60 ? "yes" : "no"
  printf "| first export at most 256 MiB | %d MiB | %s |\n", r1, r1 <= 256 ? "yes" : "no"
  printf "| re-export after one change at most 5 s | %.1f s | %s |\n", w3, w3 <= 5 ? "yes" : "no"
  # the page, the index and the manifest
  printf "| re-export after one change rewrites the page and the index | %d files (manifest included) | %s |\n", n3, n3 == 3 ? "yes" : "no"
}'
