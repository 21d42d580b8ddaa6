package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// findingsLayout stands in for a file with many findings without the cost
// of validating one: a file holding {"generated-findings": N} has N
// findings, two a line, reported as the engine reports them (in line
// order), then one about each hundredth line at the end, as a rule that
// can only judge at the end of the file does (a parent named nowhere).
type findingsLayout struct{ genLayout }

type findingsFile struct {
	N int `json:"generated-findings"`
}

func (findingsLayout) Name() string { return "generated-findings" }
func (findingsLayout) Detect(p string) bool {
	return findingsLayout{}.DetectHead(format.Head(p, 64))
}
func (findingsLayout) DetectHead(h []byte) bool {
	return bytes.HasPrefix(h, []byte(`{"generated-findings"`))
}
func (findingsLayout) Open(format.Ref) (session.Reader, error) {
	return nil, fmt.Errorf("not a session")
}
func (l findingsLayout) Validate(p string, rep *report.Report, opt format.ValidateOptions) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	defer fh.Close()
	return l.ValidateReader(p, fh, rep, opt)
}
func (findingsLayout) ValidateReader(name string, r io.Reader, rep *report.Report, _ format.ValidateOptions) error {
	var ff findingsFile
	if err := json.NewDecoder(r).Decode(&ff); err != nil {
		return err
	}
	lines := ff.N / 2
	for n := 1; n <= lines; n++ {
		rep.Errorf(name, n, "", "schema", "missing property 'type' [schema tree/v3/line.json#/required]")
		rep.Errorf(name, n, "", "missing-id", "entry has no id (version 3 entries must have one)")
	}
	for n := 1; n <= lines; n += 100 {
		rep.Warnf(name, n, "/parentId", "dangling-parent", "parent %q is not an entry in this file", strconv.Itoa(n))
	}
	rep.Counted("generated-findings", 1, lines)
	return nil
}

func init() { registry.All = append(registry.All, findingsLayout{}) }

// sortedLines checks, as they are written, that text findings come sorted
// by path and line, and counts them.
type sortedLines struct {
	n        int
	last     [2]string // path, line
	lastLine int
	bad      string
	partial  []byte
}

func (s *sortedLines) Write(p []byte) (int, error) {
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(s.partial[:i])
		s.partial = s.partial[i+1:]
		s.n++
		path, rest, _ := strings.Cut(line, ":")
		num, _, _ := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if err != nil && s.bad == "" {
			s.bad = line
		}
		if (path < s.last[0] || path == s.last[0] && n < s.lastLine) && s.bad == "" {
			s.bad = fmt.Sprintf("%q after %s:%d", line, s.last[0], s.lastLine)
		}
		s.last[0], s.lastLine = path, n
	}
}

// Validate holds a bounded heap however many findings it prints: a file
// with a million findings once ran validate out of memory (every finding
// was kept, at a few hundred bytes, to be sorted at the end). Two files
// and standard output that checks the order: the findings of the first
// file, sorted, then the second's.
func TestValidateHeapBoundedInFindings(t *testing.T) {
	const findings, bound = 150_000, 32 << 20
	dir := t.TempDir()
	for _, name := range []string{"b.json", "a.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, `{"generated-findings": %d}`, findings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, output := range []string{"text", "json"} {
		t.Run(output, func(t *testing.T) {
			out := &sortedLines{}
			var stderr bytes.Buffer
			var stdout io.Writer = out
			if output == "json" {
				stdout = &jsonCounter{}
			}
			env := &Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: &stderr, StdinIsData: func() bool { return false }}
			var err error
			// The collector runs often, so that the heap measured is what
			// is kept, not garbage.
			defer debug.SetGCPercent(debug.SetGCPercent(10))
			grew, _ := heapwatch.Growth(func() {
				err = Validate(env, ValidateOptions{Output: output, Paths: []string{filepath.Join(dir, "b.json"), filepath.Join(dir, "a.json")}})
			})
			t.Logf("%s: heap grew by %d MiB for %d findings", output, grew>>20, 2*findings)
			if code := Code(err); code != ExitInvalid {
				t.Fatalf("exit %d (%v), want %d", code, err, ExitInvalid)
			}
			want := 2 * (findings + findings/200)
			if output == "text" {
				if out.n != want || out.bad != "" {
					t.Errorf("%d lines, want %d; out of order: %s", out.n, want, out.bad)
				}
				if !strings.HasPrefix(out.last[0], filepath.Join(dir, "b.json")) {
					t.Errorf("last finding in %s, want b.json's", out.last[0])
				}
			} else if n := stdout.(*jsonCounter).n; n != want+1 {
				t.Errorf("%d NDJSON lines, want %d findings and the summary", n, want)
			}
			if grew > bound {
				t.Errorf("heap grew by %d MiB for %d findings, want under %d MiB", grew>>20, 2*findings, bound>>20)
			}
		})
	}
}

type jsonCounter struct{ n int }

func (c *jsonCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}
