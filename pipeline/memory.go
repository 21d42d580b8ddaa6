package pipeline

import (
	"strings"

	"github.com/sesstool/sesstool/registry"
)

// Streams reports whether a command line (the arguments after the program
// name) runs a command whose memory does not grow with the session:
// validate, migrate, and convert to a layout the registry says streams.
// main sets a soft memory limit for those, before flags are parsed; a run
// that then reads a store whole lifts it (GatherOptions.Hold). Export
// always holds the session it renders, and info and detect read little.
func Streams(args []string) bool {
	cmd := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			cmd = a
			break
		}
	}
	switch cmd {
	case "validate", "migrate":
		return true
	case "convert":
		for i, a := range args {
			to, ok := strings.CutPrefix(a, "--to=")
			if !ok && (a == "--to" || a == "-to") && i+1 < len(args) {
				to, ok = args[i+1], true
			}
			if ok {
				return registry.Streams(to)
			}
		}
	}
	return false
}
