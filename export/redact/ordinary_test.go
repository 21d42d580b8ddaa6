package redact

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// maxFPPerThousandLines is how many masks 1,000 lines of ordinary code and
// configuration may get: each is a false positive, as none holds a secret.
const maxFPPerThousandLines = 1.0

// ordinaryFiles are code and configuration found on this machine (not
// copied into the project): Go's and Python's own library sources (Go's
// tests and test data left out, as they hold sample keys on purpose), the
// go.sum files of the module cache and the npm lock and package files of
// the test tools.
func ordinaryFiles(t *testing.T) map[string][]string {
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	files := map[string][]string{}
	if root := goenv("GOROOT"); root != "" {
		_ = filepath.WalkDir(filepath.Join(root, "src"), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files["go-source"] = append(files["go-source"], p)
			}
			return nil
		})
	}
	sums, _ := filepath.Glob(filepath.Join(goenv("GOMODCACHE"), "*", "*", "*", "go.sum"))
	more, _ := filepath.Glob(filepath.Join(goenv("GOMODCACHE"), "*", "*", "go.sum"))
	files["go.sum"] = append(append(append(files["go.sum"], sums...), more...), filepath.Join(peers.RepoRoot(), "go.sum"))
	cache, _ := filepath.EvalSymlinks(filepath.Join(peers.RepoRoot(), ".cache"))
	_ = filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "package-lock.json" {
			files["package-lock"] = append(files["package-lock"], p)
		}
		if err == nil && !d.IsDir() && d.Name() == "package.json" {
			files["package-json"] = append(files["package-json"], p)
		}
		return nil
	})
	pys, _ := filepath.Glob("/usr/lib/python3*/*.py")
	files["python-source"] = pys
	for k := range files {
		sort.Strings(files[k])
	}
	return files
}

// TestOrdinaryCode redacts ordinary code and configuration, as a session
// shows it when an agent reads files, and holds the masks per 1,000 lines
// to the goal, for each kind of file.
func TestOrdinaryCode(t *testing.T) {
	files := ordinaryFiles(t)
	if len(files["go-source"]) == 0 {
		peers.Need(t, "Go's library sources not found (go env GOROOT)")
	}
	const maxLines = 400_000 // per kind: enough to measure 1 in 1,000 well
	if testing.Short() {
		t.Skip("reads a few hundred thousand lines")
	}
	for _, kind := range []string{"go-source", "python-source", "go.sum", "package-lock", "package-json"} {
		var lines, masks int
		for _, p := range files[kind] {
			if lines >= maxLines {
				break
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			r := mustNew(t)
			r.text(string(b))
			lines += strings.Count(string(b), "\n")
			masks += r.Count
			if r.Count > 0 && testing.Verbose() {
				t.Logf("%s: %v", p, r.ByRule)
			}
		}
		if lines == 0 {
			t.Logf("%s: no file found", kind)
			continue
		}
		fp := 1000 * float64(masks) / float64(lines)
		t.Logf("%-12s %d masks in %d lines: %.3f per 1,000 lines", kind, masks, lines, fp)
		if fp > maxFPPerThousandLines {
			t.Errorf("%s: %.3f false positives per 1,000 lines, want at most %.0f", kind, fp, maxFPPerThousandLines)
		}
	}
}
