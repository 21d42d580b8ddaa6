package tree

import (
	"path/filepath"
	"testing"
)

func TestDefaultStore(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct{ env, want string }{
		{"", filepath.Join(home, ".pi", "agent", "sessions")},
		{"/srv/pi", "/srv/pi/sessions"},
		{"~/agent", filepath.Join(home, "agent", "sessions")},
		{"~", filepath.Join(home, "sessions")},
	} {
		t.Setenv(AgentDirEnv, c.env)
		if got := (Format{}).DefaultStore(); got != c.want {
			t.Errorf("%s=%q: DefaultStore() = %q, want %q", AgentDirEnv, c.env, got, c.want)
		}
	}
}
