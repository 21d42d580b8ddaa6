// Package opencode reads and writes OpenCode's session storage: the 1.x JSON
// file tree (storage/), the 0.x per-project tree, the opencode.db SQLite
// database of 1.2+ (read-only), and the `opencode export` document
// (format opencode-export). See docs/opencode.md.
package opencode

import (
	"github.com/sesstool/sesstool/format"
)

// ExportName is the export document's format name.
const ExportName = "opencode-export"

// Format is the `opencode` layout: every storage generation, detected by
// content; it writes the 1.x JSON tree.
type Format struct{}

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

// Detect claims stores (tree, legacy tree, database, data directory), not
// lone export documents: those are opencode-export's.
func (Format) Detect(path string) bool {
	l, _ := classify(path)
	return l != layoutNone && l != layoutExport
}

var (
	_ format.Format   = Format{}
	_ format.Writer   = Format{}
	_ format.Unreader = Format{}
	_ format.Format   = Export{}
	_ format.Writer   = Export{}
	_ format.Stream   = Export{}
	_ format.Declared = Format{}
	_ format.Declared = Export{}
)

// Export is the `opencode export` / `opencode import` document
// {info, messages:[{info, parts}]}, pretty-printed with 2 spaces.
type Export struct{}

func (Export) Name() string { return ExportName }

func (Export) Aliases() []string { return nil }

// Ext is the export document's file extension.
func (Export) Ext() string { return ".json" }

func (Export) Detect(path string) bool {
	l, _ := classify(path)
	return l == layoutExport
}

func (Export) DetectHead(head []byte) bool { return isExportHead(head) }
