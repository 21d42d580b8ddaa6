// Package registry lists every layout sesstool knows. Adding a layout is one
// new package under format/ and one line in All.
package registry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/ash"
	"github.com/sesstool/sesstool/format/flat"
	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/format/tree"
)

// All is every layout, in detection order: directory layouts with strong
// markers first, then single-file layouts.
var All = []format.Format{
	goat.Format{},
	ash.Format{},
	opencode.Format{},
	opencode.Export{},
	flat.New(),
	tree.Format{},
	model.Format{}, // not an agent's layout: the model dump (convert --to model), detected by its meta line
}

// Lookup finds a layout by name or alias (case-insensitive).
func Lookup(name string) (format.Format, error) {
	n := strings.ToLower(name)
	for _, f := range All {
		if f.Name() == n {
			return f, nil
		}
		for _, a := range f.Aliases() {
			if a == n {
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown format %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the canonical names, sorted.
func Names() []string {
	var out []string
	for _, f := range All {
		out = append(out, f.Name())
	}
	sort.Strings(out)
	return out
}

// Detect returns the layout of path itself, or nil.
func Detect(path string) format.Format {
	for _, f := range All {
		if f.Detect(path) {
			return f
		}
	}
	return nil
}

// DetectHead returns the single-file layout whose content starts with head.
func DetectHead(head []byte) format.Format {
	for _, f := range All {
		if s, ok := f.(format.Stream); ok && s.DetectHead(head) {
			return f
		}
	}
	return nil
}
