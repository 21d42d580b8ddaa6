package command

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/benchdata"
)

// readSoFar is how many bytes this process has read from files
// (/proc/self/io rchar), or false where the system does not say.
func readSoFar() (int64, bool) {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// TestReadsTreeOnce counts the bytes read while commands run on a tree
// session:
//   - validate reads it once: detection reads only the heads of the file
//     (a Codex document, which holds "session" too, is told apart from
//     JSON Lines by its first line);
//   - export html reads it once, plus the page's spilled pieces (about a
//     third of the session): its validation hands the lines it reads to
//     the page's reader (pipeline.Input.Tee);
//   - export markdown, which validates first and reads the session twice,
//     shows that the count measures.
func TestReadsTreeOnce(t *testing.T) {
	if _, ok := readSoFar(); !ok {
		t.Skip("this system does not count the bytes a process reads")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	data := benchdata.TreeBytes(t, 8<<20, true)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	size := float64(len(data))
	for _, c := range []struct {
		cmd      string
		min, max float64 // bytes read, in session sizes
	}{{"validate", 1, 1.1}, {"html", 1, 1.6}, {"markdown", 2, 8}} {
		env, _, errb := testEnv("")
		before, _ := readSoFar()
		var err error
		if c.cmd == "validate" {
			err = Validate(env, ValidateOptions{Paths: []string{in}})
		} else {
			err = Export(env, ExportOptions{Kind: c.cmd, Out: filepath.Join(dir, "out."+c.cmd), Paths: []string{in}})
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.cmd, err, errb)
		}
		after, _ := readSoFar()
		if got := float64(after-before) / size; got < c.min || got > c.max {
			t.Errorf("%s read the %d-byte session %.2f times, want %.1f-%.1f", c.cmd, len(data), got, c.min, c.max)
		}
	}
}
