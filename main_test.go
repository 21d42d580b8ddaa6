package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/registry"
)

// The CLI is tested end to end by the scripts in testdata/script: commands,
// stdout, stderr and exit codes in one readable file each.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sesstool": func() { os.Exit(run(os.Args)) },
		// expect CODE ARGS... runs sesstool ARGS and succeeds only when it
		// exits with CODE, so scripts pin exact exit codes.
		"expect": func() {
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "expect: first argument must be an exit code")
				os.Exit(100)
			}
			got := run(append([]string{"sesstool"}, os.Args[2:]...))
			if got != want {
				fmt.Fprintf(os.Stderr, "expect: exit code %d, want %d\n", got, want)
				os.Exit(101)
			}
			os.Exit(0)
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			e.Setenv("SAMPLES", wd+"/testdata/samples")
			// Real sessions copied from public repositories are not
			// carried by the project; scripts read them from here, on
			// lines marked [shared].
			e.Setenv("SHARED", shared.Dir())
			e.Setenv("NO_COLOR", "1")
			return nil
		},
		// [format:NAME] holds when the build has that layout, so scripts
		// for a layout's commands can run as soon as its reader is merged.
		// [root] holds when running as root, who reads a chmod 000 folder
		// anyway: scripts that need an unreadable path skip then (a Go
		// test covers it, see skip_test.go).
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			if name, ok := strings.CutPrefix(cond, "format:"); ok {
				_, err := registry.Lookup(name)
				return err == nil, nil
			}
			// [shared] holds when the shared samples are there; their
			// absence fails a script under SESSTOOL_REQUIRE_PEERS=1, as a
			// missing peer fails a test.
			if cond == "shared" {
				_, err := os.Stat(filepath.Join(shared.Dir(), "samples"))
				if err != nil && os.Getenv("SESSTOOL_REQUIRE_PEERS") == "1" {
					return false, fmt.Errorf("shared samples not found (SESSTOOL_SHARED): %v", err)
				}
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}
