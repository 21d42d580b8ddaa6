package tree

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// AgentDirEnv names pi's agent folder when set; pi keeps its sessions in
// its sessions/ folder.
const AgentDirEnv = "PI_CODING_AGENT_DIR"

// DefaultStore is where pi keeps its sessions: $PI_CODING_AGENT_DIR/sessions
// (a leading ~ expanded, as pi does), else ~/.pi/agent/sessions.
func (Format) DefaultStore() string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = "~"
	}
	if dir := os.Getenv(AgentDirEnv); dir != "" {
		if dir == "~" {
			dir = home
		} else if rest, ok := strings.CutPrefix(dir, "~/"); ok {
			dir = filepath.Join(home, rest)
		}
		return filepath.Join(dir, "sessions")
	}
	return filepath.Join(home, ".pi", "agent", "sessions")
}

// Sessions: a tree file holds one session.
func (Format) Sessions(path string) ([]format.Ref, error) {
	return []format.Ref{{Path: path}}, nil
}
