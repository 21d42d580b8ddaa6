#!/usr/bin/env bash
# Whole-command benchmarks, sesstool against the peers, on this machine in one
# run. Inputs are generated deterministically (bench/gen) into bench/out/.
# Prints a Markdown table of times, peak RSS and ratios. It fails only on
# errors, never on timing.
#
#   bash bench/run.sh            # 1 MB, 100 MB and 1 GB inputs
#   SIZES="1MB 100MB" bash bench/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out="$root/bench/out"
mkdir -p "$out"
shared="${SESSTOOL_SHARED:-$root/../shared}"
peers="${SESSTOOL_PEERS:-$root/.cache/peers}"
sample="$shared/samples/pi/pi-mono_before-compaction.v1.jsonl"
SIZES="${SIZES:-1MB 100MB 1GB}"

go build -o "$out/sesstool" .
go build -o "$out/gen" ./bench/gen
st="$out/sesstool"
rm -rf "$out/schema" && "$st" schema dump "$out/schema" 2>/dev/null

for s in $SIZES; do
  [ -f "$out/tree-$s.v3.jsonl" ] || "$out/gen" tree-v3 -size "$s" -o "$out/tree-$s.v3.jsonl" "$sample"
done
[ -f "$out/tree-100MB.v1.jsonl" ] || "$out/gen" tree-v1 -size 100MB -o "$out/tree-100MB.v1.jsonl" "$sample"
[ -d "$out/opencode-store" ] || "$out/gen" opencode -messages 10000 -parts 50000 -o "$out/opencode-store" "$shared/samples/opencode/json-tree-v1.1.34/storage"

# measure LABEL CMD...: wall seconds and peak RSS (MiB) of one run, after a warm-up
# run that also fills the page cache, so both sides read from memory.
measure() {
  local label=$1; shift
  "$@" >/dev/null 2>&1 || true
  local t0 t1 rss
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$out/rss" "$@" >/dev/null 2>"$out/err" || { echo "FAILED: $label: $*" >&2; cat "$out/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  rss=$(tail -1 "$out/rss")
  echo "$label $(echo "$t1 - $t0" | bc) $((rss / 1024))"
}
# expect_fail wraps a command whose non-zero exit is its answer (validate exit 1 on findings).
ok01() { "$@"; local c=$?; [ $c -le 1 ]; }

mb() { echo "scale=1; $(stat -c %s "$1") / 1048576" | bc; }
row() { printf '| %s | %s | %s s | %s MiB | %s |\n' "$@"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3), node $(node --version 2>/dev/null || echo none)"
echo
echo "| task | input | time | peak RSS | vs peer |"
echo "|---|---|---|---|---|"
for s in $SIZES; do
  f="$out/tree-$s.v3.jsonl"
  read -r _ ts rs < <(measure validate ok01 "$st" validate "$f")
  ratio="-"
  if [ -f "$peers/ajv-jsonl.mjs" ] && [ -d "$peers/node_modules/ajv" ]; then
    read -r _ ta ra < <(measure ajv ok01 node "$peers/ajv-jsonl.mjs" "$out/schema/tree/v3" "$out/schema/tree/v3/line.json" "$f")
    row "ajv validate (peer)" "$s tree v3" "$ta" "$ra" ""
    ratio="$(echo "scale=1; $ta / $ts" | bc)x faster than ajv"
  fi
  row "sesstool validate" "$s tree v3 ($(mb "$f") MB)" "$ts" "$rs" "$ratio"
done

v1="$out/tree-100MB.v1.jsonl"
read -r _ tm rm < <(measure migrate "$st" migrate -o "$out/migrated.v3.jsonl" "$v1")
ratio="-"
if [ -f "$peers/pi-context.mjs" ]; then
  read -r _ tp rp < <(measure pi node "$peers/pi-context.mjs" "$v1")
  row "pi load-and-migrate (peer)" "100MB tree v1" "$tp" "$rp" ""
  ratio="$(echo "scale=1; $tp / $tm" | bc)x faster than pi"
fi
row "sesstool migrate v1->v3" "100MB tree v1" "$tm" "$rm" "$ratio"

big="$out/tree-100MB.v3.jsonl"
if [ -f "$big" ]; then
  rm -f "$out/export.html" "$out/pi-export.html"
  read -r _ te re < <(measure export "$st" export html --force -o "$out/export.html" "$big")
  ratio="-"
  if [ -f "$peers/pi-export.mjs" ]; then
    read -r _ tpe rpe < <(measure pi-export node "$peers/pi-export.mjs" "$big" "$out/pi-export.html")
    row "pi export (peer)" "100MB tree v3" "$tpe" "$rpe" "output $(mb "$out/pi-export.html") MB"
    ratio="$(echo "scale=1; $tpe / $te" | bc)x faster than pi; output $(mb "$out/export.html") MB"
  fi
  row "sesstool export html" "100MB tree v3" "$te" "$re" "$ratio"
fi

for s in $SIZES; do
  f="$out/tree-$s.v3.jsonl"
  rm -f "$out/conv.jsonl"
  read -r _ tc rc < <(measure convert "$st" convert --to flat --force -o "$out/conv.flat.jsonl" "$f")
  row "sesstool convert tree->flat" "$s tree v3" "$tc" "$rc" "$(echo "scale=1; $(mb "$f") / $tc" | bc) MB/s"
done

store="$out/opencode-store/storage"
bytes=$(du -sb "$store" | cut -f1)
read -r _ to ro < <(measure oc "$st" convert --from opencode --to tree --force -o "$out/oc.jsonl" "$store")
row "sesstool convert opencode->tree" "10k msgs/50k parts ($((bytes / 1048576)) MB)" "$to" "$ro" "$(echo "scale=1; $bytes / 1048576 / $to" | bc) MB/s"
