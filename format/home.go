package format

import (
	"os"
	"path/filepath"
)

// InHome is a path under the user's home directory, where the agents keep
// their default stores. When the home directory cannot be found it stays
// spelled "~/...", so the store is reported missing under that name rather
// than looked for relative to the working directory.
func InHome(elem ...string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = "~"
	}
	return filepath.Join(append([]string{home}, elem...)...)
}

// EnvOrHome is the folder the environment variable env names when it is
// set, else the one under the user's home directory (InHome(elem...)): how
// the agents place their stores (CLAUDE_CONFIG_DIR, CODEX_HOME, the XDG
// folders).
func EnvOrHome(env string, elem ...string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	return InHome(elem...)
}
