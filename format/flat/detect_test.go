package flat

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDetectHead(t *testing.T) {
	cases := []struct {
		name string
		head string
		want bool
	}{
		{"flat", `{"type":"session","id":"x","version":1,"timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n", true},
		{"flat without newline", `{"type":"session","id":"x","version":1}`, true},
		{"pi v1 has no version", `{"type":"session","id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n", false},
		{"pi v3", `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n", false},
		{"pi v2", `{"type":"session","version":2,"id":"x"}` + "\n", false},
		{"ash string version", `{"type":"session","version":"1","id":"x","created_at":"2026","provider":"cli"}` + "\n", false},
		{"float version", `{"type":"session","version":1.0}` + "\n", false},
		{"message first", `{"type":"message","id":"a"}` + "\n", false},
		{"not JSON", "hello\n", false},
		{"empty", "", false},
	}
	for _, c := range cases {
		if got := New().DetectHead([]byte(c.head)); got != c.want {
			t.Errorf("%s: DetectHead = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDetectPath(t *testing.T) {
	if !New().Detect(filepath.Join(samples, "20261121-042424-f487536d.jsonl")) {
		t.Error("sample not detected")
	}
	if New().Detect(samples) {
		t.Error("a directory is not a flat session")
	}
}

func TestDefaultStore(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if got := New().DefaultStore(); got != "/cfg/agent/sessions" {
		t.Errorf("with XDG_CONFIG_HOME: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got := New().DefaultStore(); got != "/home/u/.config/agent/sessions" {
		t.Errorf("without XDG_CONFIG_HOME: %q", got)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
