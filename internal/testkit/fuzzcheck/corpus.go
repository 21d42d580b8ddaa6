package fuzzcheck

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Corpus reads the seed corpus of the fuzz target name, as go test keeps
// it in testdata/fuzz/<name>/ (a header line, then one value a line,
// []byte("...")), so that a seeded test can run every seed through the
// property a fuzz target checks only one part of per input (Check).
func Corpus(t testing.TB, name string) [][][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", name, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus for %s in testdata/fuzz (%v)", name, err)
	}
	var out [][][]byte
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		var vals [][]byte
		for n := 0; sc.Scan(); n++ {
			line := sc.Text()
			if n == 0 || strings.TrimSpace(line) == "" {
				continue // the "go test fuzz v1" header
			}
			q, ok := strings.CutPrefix(line, "[]byte(")
			if !ok || !strings.HasSuffix(q, ")") {
				t.Fatalf("%s: line %d: not a []byte value", p, n+1)
			}
			s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
			if err != nil {
				t.Fatalf("%s: line %d: %v", p, n+1, err)
			}
			vals = append(vals, []byte(s))
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, vals)
	}
	return out
}

// Reused names a file, in a directory of its own made once for the fuzz
// target, that each input is written over (Rewrite): a directory made and
// removed for every input was most of the system time of a target whose
// inputs mostly fail validation at once. Inputs run one at a time in a
// fuzzing process, so they never share the file.
func Reused(f *testing.F, name string) string {
	return filepath.Join(f.TempDir(), name)
}

// Rewrite replaces the content of the file at p with data.
func Rewrite(t testing.TB, p string, data []byte) {
	t.Helper()
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
