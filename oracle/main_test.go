package oracle

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// bin is the sesstool binary the tests run, built once for the package.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sesstool-oracle-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = filepath.Join(dir, "sesstool")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = peers.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building sesstool: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs sesstool with args and returns its standard output, standard
// error and exit code.
func run(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("running sesstool %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

// sesstool runs sesstool with args and fails the test unless it exits 0.
func sesstool(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("sesstool %v: exit %d\n%s", args, code, errOut)
	}
	return out
}
