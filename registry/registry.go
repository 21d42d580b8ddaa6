// Package registry lists every layout and every exporter sesstool knows.
// Adding a layout is one new package under format/ and one line in Layouts;
// the command line's help text, its --to choices, the default layout and
// the memory policy all come from here, so no other package names a layout.
package registry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/ash"
	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/format/copilot"
	"github.com/sesstool/sesstool/format/flat"
	"github.com/sesstool/sesstool/format/gemini"
	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/format/opencode"
	"github.com/sesstool/sesstool/format/qwen"
	"github.com/sesstool/sesstool/format/tree"
)

// Layout is one layout and what the command line needs to know of it.
type Layout struct {
	format.Format
	// Default marks the layout used when neither PATH nor --format/--from
	// names one (its default store is read). Exactly one layout has it.
	Default bool
}

// Layouts is every layout, in detection order: directory layouts with
// strong markers first, then single-file layouts.
var Layouts = []Layout{
	{Format: goat.Format{}},
	{Format: ash.Format{}},
	{Format: opencode.Format{}},
	{Format: opencode.Export{}},
	{Format: codex.Format{}},
	// Before Claude Code, whose envelope Qwen Code's lines share.
	{Format: qwen.Format{}},
	{Format: claude.Format{}},
	{Format: copilot.Format{}},
	{Format: gemini.Format{}},
	{Format: flat.New()},
	{Format: tree.Format{}, Default: true},
	// Not an agent's layout: the model dump (convert --to model), detected by its meta line.
	{Format: model.Format{}},
}

// All is every layout's Format, in detection order.
var All = formats(Layouts)

func formats(ls []Layout) []format.Format {
	out := make([]format.Format, len(ls))
	for i, l := range ls {
		out[i] = l.Format
	}
	return out
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

// layoutOf is f's line in Layouts (a layout a test added to All alone has
// none: it is not the default).
func layoutOf(f format.Format) Layout {
	for _, l := range Layouts {
		if l.Name() == f.Name() {
			return l
		}
	}
	return Layout{Format: f}
}

// Default is the layout whose default store is read when nothing names one.
func Default() format.Format {
	for _, f := range All {
		if layoutOf(f).Default {
			return f
		}
	}
	return All[len(All)-1]
}

// Names lists the canonical names, sorted.
func Names() []string { return names(func(format.Format) bool { return true }) }

// WriterNames lists the layouts convert can write (the --to choices), sorted.
func WriterNames() []string {
	return names(func(f format.Format) bool { _, ok := f.(format.Writer); return ok })
}

// MigratorNames lists the layouts that have versions to migrate, sorted.
func MigratorNames() []string {
	return names(func(f format.Format) bool { _, ok := f.(format.Migrator); return ok })
}

func names(keep func(format.Format) bool) []string {
	var out []string
	for _, f := range All {
		if keep(f) {
			out = append(out, f.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Streams reports whether writing the named layout keeps memory flat in
// the session's size: a writer whose Traits do not say it holds the
// session (false for an unknown name).
func Streams(name string) bool {
	f, err := Lookup(name)
	if err != nil {
		return false
	}
	_, w := f.(format.Writer)
	return w && !format.TraitsOf(f).HoldsSession
}

// Detect returns the layout of path itself, or nil.
func Detect(path string) format.Format {
	for _, f := range All {
		if f.Detect(path) {
			return f
		}
	}
	for _, f := range All {
		if format.ByName(f, path) {
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

// FileExt is the extension of a file a single-file layout writes.
func FileExt(f format.Format) string {
	if e, ok := f.(format.Extensioner); ok {
		return e.Ext()
	}
	return ".jsonl"
}

// Choices renders names for help text, each with its aliases:
// "flat (agent), tree (pi, jsonl)".
func Choices(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if f, err := Lookup(n); err == nil && len(f.Aliases()) > 0 {
			out[i] += " (" + strings.Join(f.Aliases(), ", ") + ")"
		}
	}
	return strings.Join(out, ", ")
}
