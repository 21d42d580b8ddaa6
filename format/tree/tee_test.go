package tree

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
)

// validateLog validates in, handing its lines to tee when set, and
// returns the findings.
func validateLog(t *testing.T, name string, in []byte, tee *jsonl.Feed) []string {
	t.Helper()
	rep := &report.Report{}
	if tee != nil {
		defer tee.End(errors.New("the validation stopped before the end")) // as Input.Check does
	}
	if err := (Format{}).ValidateReader(name, bytes.NewReader(in), rep, format.ValidateOptions{Tee: tee}); err != nil {
		t.Errorf("%s: validate: %v", name, err)
	}
	var out []string
	for _, f := range rep.Findings() {
		out = append(out, f.Text())
	}
	return out
}

// teedLog reads in from the lines its validation hands over (OpenTeed),
// while it validates, and returns what readLog would and the findings.
func teedLog(t *testing.T, name string, in []byte, ahead bool) (log, findings []string) {
	t.Helper()
	feed := jsonl.NewFeed(2) // small, so the validation waits for the reader
	done := make(chan []string, 1)
	go func() { done <- validateLog(t, name, in, feed) }()
	r, err := Format{}.OpenTeed(format.Ref{Path: name}, feed)
	log = logReader(t, r, err, ahead)
	findings = hangwatch.Recv(t, done, name+": the validation never ended once the reader was closed")
	return log, findings
}

// TestTeedSameAsRead reads every input from the lines its validator reads,
// one at a time and ahead: the entries and errors must be those of
// reading the file itself, and the findings those of validating it alone.
func TestTeedSameAsRead(t *testing.T) {
	inputs := readInputs(t)
	inputs["not a session"] = []byte("[1]\n" + strings.Repeat("{\"type\":\"message\"}\n", 3000))
	inputs["empty"] = nil
	if !testing.Short() {
		// a line longer than a reader holds, after the first batches
		gen := benchdata.TreeBytes(t, 2<<20, true)
		long := `{"type":"custom","id":"L","parentId":null,"timestamp":"2026-01-01T00:00:00Z","customType":"x","data":"` +
			strings.Repeat("a", jsonl.MaxHeld) + "\"}\n"
		inputs["long line"] = append(append(gen, long...), gen[bytes.IndexByte(gen, '\n')+1:]...)
	}
	for name, in := range inputs {
		alone := validateLog(t, name, in, nil)
		for _, ahead := range []bool{false, true} {
			want := readLog(t, name, in, ahead)
			got, findings := teedLog(t, name, in, ahead)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s (ahead %v): reading the validator's lines differs from reading the file (-file +teed):\n%s", name, ahead, d)
			}
			if d := cmp.Diff(alone, findings); d != "" {
				t.Errorf("%s (ahead %v): the findings differ when the lines are handed over (-alone +teed):\n%s", name, ahead, d)
			}
		}
	}
	if got := readLog(t, "long line", inputs["long line"], false); !testing.Short() && !strings.Contains(strings.Join(got, "\n"), "longer than 64 MiB") {
		t.Errorf("the long line is not refused by the reader: %q", got[len(got)-2:])
	}
}

// TestTeedReaderClosedEarly stops reading after one entry: the validation
// must still read the whole file, with the same findings, and not wait
// for a reader that is gone.
func TestTeedReaderClosedEarly(t *testing.T) {
	in := benchdata.TreeBytes(t, 4<<20, true)
	in = append(in, "{\"type\":\"message\",\"id\":\"zz\",\n"...) // a finding at the very end
	alone := validateLog(t, "x", in, nil)
	if len(alone) == 0 {
		t.Fatal("no finding: the test input lost its bad last line")
	}
	feed := jsonl.NewFeed(1)
	done := make(chan []string, 1)
	go func() { done <- validateLog(t, "x", in, feed) }()
	r, err := Format{}.OpenTeed(format.Ref{Path: "x"}, feed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	got := hangwatch.Recv(t, done, "the validation waits for a closed reader")
	if d := cmp.Diff(alone, got); d != "" {
		t.Errorf("findings differ (-alone +teed):\n%s", d)
	}
}

// TestTeedValidationStopsEarly ends the feed the way pipeline.Input.Check
// does when a validation returns without reading to the end: the reader
// gets that error after the lines it was handed.
func TestTeedValidationStopsEarly(t *testing.T) {
	feed := jsonl.NewFeed(1)
	head := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`
	go func() {
		feed.Send([]jsonl.Line{{Bytes: []byte(head), N: 1}})
		feed.End(errors.New("stopped"))
	}()
	r, err := Format{}.OpenTeed(format.Ref{Path: "x"}, feed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("Next after the feed ended = %v, want the feed's error", err)
	}
}
