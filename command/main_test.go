package command

import (
	"os"
	"testing"

	"github.com/sesstool/sesstool/internal/cleanup"
)

// TestMain removes what the commands run in-process leave for the end of a
// run (private copies of databases with a write-ahead log), as main does.
func TestMain(m *testing.M) {
	code := m.Run()
	cleanup.RunAtExit()
	os.Exit(code)
}
