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
