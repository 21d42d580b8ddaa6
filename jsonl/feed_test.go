package jsonl

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

func feedLines(ns ...int) []Line {
	var out []Line
	for _, n := range ns {
		out = append(out, Line{Bytes: []byte{'a' + byte(n)}, N: n})
	}
	return out
}

// drain reads f to its end and returns the line numbers and the error.
func drain(t *testing.T, f *Feed) ([]int, error) {
	t.Helper()
	var ns []int
	for range 1000 {
		l, err := f.NextNonBlank()
		if err != nil {
			if _, again := f.NextNonBlank(); again != err {
				t.Errorf("the end is %v, then %v: want the same error again", err, again)
			}
			return ns, err
		}
		ns = append(ns, l.N)
	}
	t.Fatal("the feed never ended")
	return nil, nil
}

// TestFeedOrder sends batches and ends the feed in the ways a validator
// does: every line comes out in order before the end, which is io.EOF, the
// read error, or a held reader's refusal of a long line.
func TestFeedOrder(t *testing.T) {
	readErr := errors.New("disk on fire")
	for _, c := range []struct {
		name    string
		batches [][]Line
		end     func(*Feed)
		wantErr func(error) bool
	}{
		{"eof", [][]Line{feedLines(1, 2), nil, feedLines(4)}, func(f *Feed) { f.End(nil) }, func(err error) bool { return err == io.EOF }},
		{"read error", [][]Line{feedLines(1)}, func(f *Feed) { f.End(readErr); f.End(nil) }, func(err error) bool { return err == readErr }},
		{"long line", [][]Line{feedLines(1, 2)}, func(f *Feed) { f.EndTooLong(3) }, func(err error) bool {
			var tl *TooLongError
			return errors.As(err, &tl) && tl.Line == 3 && exitcode.Of(err) == exitcode.Invalid && strings.Contains(err.Error(), "line 3: longer than 64 MiB")
		}},
		{"nothing", nil, func(f *Feed) { f.End(nil) }, func(err error) bool { return err == io.EOF }},
	} {
		f := NewFeed(1)
		go func() {
			for _, b := range c.batches {
				if !f.Send(b) {
					t.Errorf("%s: Send refused a batch before the end", c.name)
				}
			}
			c.end(f)
		}()
		got, err := drain(t, f)
		var want []int
		for _, b := range c.batches {
			for _, l := range b {
				want = append(want, l.N)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: lines %v, want %v", c.name, got, want)
		}
		if !c.wantErr(err) {
			t.Errorf("%s: end %v", c.name, err)
		}
	}
}

// TestFeedStop: a consumer that stops frees a filler waiting on a full
// feed, and every later Send is refused.
func TestFeedStop(t *testing.T) {
	f := NewFeed(1)
	if !f.Send(feedLines(1)) {
		t.Fatal("the first batch was refused")
	}
	sent := make(chan bool)
	go func() { sent <- f.Send(feedLines(2)) }() // the feed is full: it waits
	f.Stop()
	if hangwatch.Recv(t, sent, "Send still waits after Stop") {
		t.Error("Send into a full feed succeeded after Stop")
	}
	if f.Send(feedLines(3)) {
		t.Error("Send after Stop succeeded")
	}
}
