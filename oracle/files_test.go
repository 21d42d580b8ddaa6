package oracle

import (
	"os"
	"testing"
)

// readFile is a file an agent wrote, or the test fails.
func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
