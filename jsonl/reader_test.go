package jsonl

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/exitcode"
)

func readAll(t *testing.T, in string) []Line {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	var out []Line
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		l.Bytes = append([]byte(nil), l.Bytes...)
		out = append(out, l)
	}
}

func TestReader(t *testing.T) {
	long := strings.Repeat("x", 3<<20) // longer than the 256 KiB buffer
	tests := []struct {
		name string
		in   string
		want []Line
	}{
		{"empty", "", nil},
		{"lf", "a\nb\n", []Line{{Bytes: []byte("a"), N: 1, Terminated: true}, {Bytes: []byte("b"), N: 2, Terminated: true}}},
		{"crlf", "a\r\nb\r\n", []Line{{Bytes: []byte("a"), N: 1, Terminated: true, CR: true}, {Bytes: []byte("b"), N: 2, Terminated: true, CR: true}}},
		{"torn last line", "a\nb", []Line{{Bytes: []byte("a"), N: 1, Terminated: true}, {Bytes: []byte("b"), N: 2}}},
		{"blank lines counted", "\n\na\n", []Line{{Bytes: []byte{}, N: 1, Terminated: true}, {Bytes: []byte{}, N: 2, Terminated: true}, {Bytes: []byte("a"), N: 3, Terminated: true}}},
		{"long line", long + "\nz\n", []Line{{Bytes: []byte(long), N: 1, Terminated: true}, {Bytes: []byte("z"), N: 2, Terminated: true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d", len(got), len(tc.want))
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if string(g.Bytes) != string(w.Bytes) || g.N != w.N || g.Terminated != w.Terminated || g.CR != w.CR {
					t.Errorf("line %d: got {len %d, N %d, term %v, cr %v}, want {len %d, N %d, term %v, cr %v}",
						i, len(g.Bytes), g.N, g.Terminated, g.CR, len(w.Bytes), w.N, w.Terminated, w.CR)
				}
			}
		})
	}
}

func TestNextNonBlank(t *testing.T) {
	r := NewReader(strings.NewReader("\n  \t\n{\"a\":1}\r\n\n \n{\"b\":2}"))
	var got []string
	var nums []int
	for {
		l, err := r.NextNonBlank()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l.Bytes))
		nums = append(nums, l.N)
	}
	if want := []string{`{"a":1}`, `{"b":2}`}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	if want := []int{3, 6}; !slices.Equal(nums, want) {
		t.Errorf("line numbers %v, want %v (blank lines still count)", nums, want)
	}
}

// NextLimit hands a line over max in pieces that join to what Next
// returns, terminator and CR handled the same, whatever the piece edges.
func TestNextLimit(t *testing.T) {
	mib := 1 << 20
	crEdge := strings.Repeat("c", mib-1) + "\r" // the CR ends the buffer's first piece
	tests := map[string]string{
		"short and long":   "ab\n" + strings.Repeat("x", 3*mib) + "\ncd\n",
		"crlf":             strings.Repeat("y", 2*mib) + "\r\nz\r\n",
		"cr at piece edge": crEdge + "\n" + crEdge + "x\n",
		"no newline":       "a\n" + strings.Repeat("w", 2*mib) + "\r",
		"long in buffer":   "0123456789\n" + "short\n",
	}
	for name, in := range tests {
		for _, max := range []int{4, 1 << 20} {
			want := readAll(t, in)
			r := NewReader(strings.NewReader(in))
			for i := 0; ; i++ {
				l, err := r.NextLimit(max)
				if errors.Is(err, io.EOF) {
					if i != len(want) {
						t.Errorf("%s, max %d: %d lines, want %d", name, max, i, len(want))
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got := l.Bytes
				if l.Long {
					var b []byte
					l.Terminated, err = r.Rest(func(p []byte) { b = append(b, p...) })
					if err != nil {
						t.Fatal(err)
					}
					got = b
				}
				if i >= len(want) || string(got) != string(want[i].Bytes) || l.N != want[i].N || l.Terminated != want[i].Terminated ||
					l.Long && len(want[i].Bytes)+2 <= max || !l.Long && len(want[i].Bytes) > max {
					t.Errorf("%s, max %d: line %d: %d bytes, long %v, terminated %v; want %+v", name, max, l.N, len(got), l.Long, l.Terminated, len(want[i].Bytes))
				}
			}
		}
	}
}

// A held reader returns lines up to its limit as Next does, and refuses a
// longer one as invalid input (exit 1) naming its line, without reading on.
func TestHeldReaderRefusesLongLines(t *testing.T) {
	const max = 3 << 20 // past the 256 KiB buffer, so the line is gathered
	ok := strings.Repeat("x", max-1)
	long := strings.Repeat("y", max+1)
	r := NewHeldReader(strings.NewReader("\n" + ok + "\n" + long + "\nz\n"))
	r.max = max
	l, err := r.NextNonBlank()
	if err != nil || l.N != 2 || string(l.Bytes) != ok {
		t.Fatalf("line 2: %d bytes, N=%d, %v; want the line of %d bytes", len(l.Bytes), l.N, err, len(ok))
	}
	for range 2 { // the refusal stays: the rest of the line is never read
		_, err = r.NextNonBlank()
		var tl *TooLongError
		if !errors.As(err, &tl) || tl.Line != 3 || tl.Max != max {
			t.Fatalf("after the long line: %v; want a TooLongError for line 3", err)
		}
		if got := exitcode.Of(err); got != exitcode.Invalid {
			t.Errorf("exit code %d, want %d", got, exitcode.Invalid)
		}
		if want := "line 3: longer than 3 MiB"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want it to start with %q", err, want)
		}
	}
	// an ordinary reader still returns the long line whole
	r = NewReader(strings.NewReader(long + "\n"))
	if l, err := r.Next(); err != nil || len(l.Bytes) != len(long) {
		t.Fatalf("NewReader: %d bytes, %v", len(l.Bytes), err)
	}
}
