package registry

import (
	"fmt"
	"io"
	"strings"

	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/transcript"
)

// Exporter renders a session for people to read; it is not a layout and
// cannot be read back.
type Exporter struct {
	Name  string // the export subcommand
	Ext   string // the extension of the file written for each session
	Usage string // the subcommand's one-line help
	Write func(io.Writer, *transcript.Transcript) error
	// WithTools, when set, is Write showing tool calls as --tools says
	// (full, summary or none); an exporter without it has no --tools.
	WithTools func(tools string) (func(io.Writer, *transcript.Transcript) error, error)
}

// Exporters is every exporter, in the order help lists them. Exporters
// hold the whole session (they render from the model).
var Exporters = []Exporter{
	{Name: "html", Ext: ".html", Usage: "render a session as one self-contained HTML page", Write: html.Write},
	{Name: "markdown", Ext: ".md", Usage: "render a session as a Markdown transcript", Write: markdown.Write, WithTools: markdown.WithTools},
}

// LookupExporter finds an exporter by name.
func LookupExporter(name string) (Exporter, error) {
	for _, e := range Exporters {
		if e.Name == name {
			return e, nil
		}
	}
	return Exporter{}, fmt.Errorf("export needs %s, not %q", strings.Join(ExporterNames(), " or "), name)
}

// ExporterNames lists the exporters in help order.
func ExporterNames() []string {
	out := make([]string, len(Exporters))
	for i, e := range Exporters {
		out[i] = e.Name
	}
	return out
}
