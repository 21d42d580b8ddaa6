package html

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
)

// chartRef is chart as first written, with fmt: the chart drawn without
// it must be the same bytes.
func chartRef(w *bufio.Writer, turns []transcript.Turn) {
	if len(turns) < 2 {
		return
	}
	const W, H = 600.0, 80.0
	var maxTok int64
	var maxCost float64
	for _, t := range turns {
		maxTok = max(maxTok, t.Context)
		maxCost = max(maxCost, t.Cost)
	}
	if maxTok == 0 && maxCost == 0 {
		return
	}
	step := W / float64(len(turns))
	x := func(i int) float64 { return (float64(i) + 0.5) * step }
	var lines, cost strings.Builder
	var seg []string
	flush := func() {
		if len(seg) > 0 {
			fmt.Fprintf(&lines, `<polyline class="tok" fill="none" points="%s"/>`, strings.Join(seg, " "))
			seg = seg[:0]
		}
	}
	for i, t := range turns {
		if t.NoUsage {
			flush()
		} else if maxTok > 0 {
			seg = append(seg, fmt.Sprintf("%.1f,%.1f", x(i), H-float64(t.Context)/float64(maxTok)*(H-4)))
		}
		y := H
		if maxCost > 0 {
			y = H - t.Cost/maxCost*(H-4)
		}
		fmt.Fprintf(&cost, "%.1f,%.1f ", x(i), y)
	}
	flush()
	fmt.Fprintf(w, `<figure class="chart" id="chart"><div class="yax"><span>%s</span><span>0</span></div>`+
		`<svg viewBox="0 0 %.0f %.0f" preserveAspectRatio="none" role="img" aria-label="context tokens and cumulative cost per turn">%s<polyline class="cost" fill="none" points="%s"/>`,
		Thousands(maxTok), W, H, lines.String(), strings.TrimSpace(cost.String()))
	for i, t := range turns {
		tip := fmt.Sprintf("turn %s · %s context tokens · %s so far", Thousands(int64(i+1)), Thousands(t.Context), Money(t.Cost))
		if t.NoUsage {
			tip = fmt.Sprintf("turn %s · no token use recorded (aborted?) · %s so far", Thousands(int64(i+1)), Money(t.Cost))
		}
		fmt.Fprintf(w, `<rect class="turn" x="%.1f" y="0" width="%.1f" height="%.0f" data-e="%d"><title>%s</title></rect>`, float64(i)*step, step, H, t.Index, esc(tip))
	}
	fmt.Fprintf(w, `</svg><div class="yax cost"><span>%s</span><span>$0</span></div>`+
		`<div class="xax"><span>turn 1</span><span>turn %s</span></div>`+
		`<figcaption><span class="k-tok">— context tokens per turn</span> <span class="k-cost">- - cumulative cost</span> · %s · gaps are turns without usage; click a turn to open it</figcaption></figure>`,
		Money(maxCost), Thousands(int64(len(turns))), Plural(len(turns), "turn"))
}

func TestChartAsWithFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 60 {
		turns := make([]transcript.Turn, n)
		cost := 0.0
		for i := range turns {
			cost += float64(r.IntN(3)) * r.Float64()
			turns[i] = transcript.Turn{Index: 2*i + r.IntN(2), Context: int64(r.IntN(3)) * r.Int64N(200_000), Cost: cost, Costed: true, NoUsage: r.IntN(5) == 0}
		}
		var got, want bytes.Buffer
		gw, ww := bufio.NewWriter(&got), bufio.NewWriter(&want)
		chart(gw, turns)
		chartRef(ww, turns)
		gw.Flush()
		ww.Flush()
		if got.String() != want.String() {
			t.Fatalf("%d turns:\n got %s\nwant %s", n, got.String(), want.String())
		}
	}
}

// A session of more turns than the chart has units offers runs of turns
// to click, each at least a unit wide, covering every turn once, each
// opening its first turn and saying which turns it holds.
func TestChartRuns(t *testing.T) {
	const n = 2_000
	turns := make([]transcript.Turn, n)
	for i := range turns {
		turns[i] = transcript.Turn{Index: 3 * i, Context: int64(i % 500), Cost: float64(i) / 100, Costed: true, NoUsage: i >= 100 && i < 110}
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	chart(w, turns)
	w.Flush()
	rects := regexp.MustCompile(`<rect class="turn" x="([\d.]+)" y="0" width="([\d.]+)" height="80" data-e="(\d+)"><title>turns ([\d,]+)–([\d,]+) · ([^<]*)</title></rect>`).FindAllStringSubmatch(b.String(), -1)
	if len(rects) != chartTargets || strings.Count(b.String(), "<rect") != chartTargets {
		t.Fatalf("%d runs (%d rects), want %d", len(rects), strings.Count(b.String(), "<rect"), chartTargets)
	}
	num := func(s string) int {
		v, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	next := 1
	for _, r := range rects {
		lo, hi := num(r[4]), num(r[5])
		if lo != next || hi < lo {
			t.Fatalf("run %s–%s after turn %d", r[4], r[5], next-1)
		}
		next = hi + 1
		if w, _ := strconv.ParseFloat(r[2], 64); w < 0.9 {
			t.Errorf("run %d–%d is %s units wide", lo, hi, r[2])
		}
		if e := num(r[3]); e != turns[lo-1].Index {
			t.Errorf("run %d–%d opens entry %d, want its first turn's %d", lo, hi, e, turns[lo-1].Index)
		}
		if want := Money(turns[hi-1].Cost) + " so far"; !strings.HasSuffix(r[6], want) {
			t.Errorf("run %d–%d: %q, want the cost at its end (%s)", lo, hi, r[6], want)
		}
	}
	if next != n+1 {
		t.Fatalf("the runs end at turn %d of %d", next-1, n)
	}
	if tip := rects[0][6]; !strings.HasPrefix(tip, "up to 2 context tokens") {
		t.Errorf("first run: %q", tip)
	}
	if tip := rects[30][6]; !strings.HasPrefix(tip, "no token use recorded") {
		t.Errorf("the run of turns 101-103, all without usage: %q", tip)
	}
}

// A session that recorded no cost (Claude Code, Codex) has no cost line at
// $0: its cost axis and legend say the cost is not recorded, and no tooltip
// names a cost.
func TestChartCostNotRecorded(t *testing.T) {
	turns := []transcript.Turn{{Index: 1, Context: 1200}, {Index: 3, Context: 5400}, {Index: 5, NoUsage: true}}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	chart(w, turns)
	w.Flush()
	got := b.String()
	for _, bad := range []string{`class="cost" fill`, "$0", "so far", "cumulative cost"} {
		if strings.Contains(got, bad) {
			t.Errorf("the chart holds %q: %s", bad, got)
		}
	}
	if !strings.Contains(got, `<div class="yax cost"><span>—</span>`) || !strings.Contains(got, "cost not recorded") {
		t.Errorf("the chart does not say the cost is not recorded: %s", got)
	}
}
