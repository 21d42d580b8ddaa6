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
	if dir := os.Getenv(AgentDirEnv); dir != "" {
		if dir == "~" {
			dir = format.InHome()
		} else if rest, ok := strings.CutPrefix(dir, "~/"); ok {
			dir = format.InHome(rest)
		}
		return filepath.Join(dir, "sessions")
	}
	return format.InHome(".pi", "agent", "sessions")
}

// Sessions: a tree file holds one session.
func (Format) Sessions(path string) ([]format.Ref, error) {
	return []format.Ref{{Path: path}}, nil
}
