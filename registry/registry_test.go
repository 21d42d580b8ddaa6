package registry

import (
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

type marker struct{}

func (marker) Name() string                                                  { return "marker" }
func (marker) Aliases() []string                                             { return []string{"mk"} }
func (marker) Detect(string) bool                                            { return false }
func (marker) Sessions(p string) ([]format.Ref, error)                       { return nil, nil }
func (marker) Open(format.Ref) (session.Reader, error)                       { return nil, nil }
func (marker) Validate(string, *report.Report, format.ValidateOptions) error { return nil }

func TestLookup(t *testing.T) {
	saved := All
	All = []format.Format{marker{}}
	defer func() { All = saved }()
	for _, n := range []string{"marker", "MK", "Marker"} {
		if f, err := Lookup(n); err != nil || f.Name() != "marker" {
			t.Errorf("Lookup(%q) = %v, %v", n, f, err)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "known: marker") {
		t.Errorf("Lookup(nope) error = %v", err)
	}
}

// The registry answers what main.go and the commands used to spell out.
func TestPolicy(t *testing.T) {
	defaults := 0
	for _, l := range Layouts {
		if l.Default {
			defaults++
		}
	}
	if defaults != 1 {
		t.Errorf("%d layouts are the default, want 1", defaults)
	}
	for _, f := range All {
		_, w := f.(format.Writer)
		if Streams(f.Name()) && !w {
			t.Errorf("%s streams but cannot be written", f.Name())
		}
		for _, a := range f.Aliases() {
			if Streams(a) != Streams(f.Name()) {
				t.Errorf("alias %s of %s disagrees on streaming", a, f.Name())
			}
		}
	}
	if Streams("nope") {
		t.Error("an unknown layout streams")
	}
	if len(WriterNames()) == 0 || len(MigratorNames()) == 0 || len(ExporterNames()) == 0 {
		t.Errorf("writers %v, migrators %v, exporters %v", WriterNames(), MigratorNames(), ExporterNames())
	}
	help := Choices(WriterNames())
	for _, n := range WriterNames() {
		f, _ := Lookup(n)
		for _, a := range append([]string{n}, f.Aliases()...) {
			if !strings.Contains(help, a) {
				t.Errorf("--to help %q does not name %s", help, a)
			}
		}
	}
	if _, err := LookupExporter("pdf"); err == nil {
		t.Error("LookupExporter(pdf) found one")
	}
}

// writer is a test layout sesstool can write; holder also declares that it
// holds a whole session in memory to write it.
type writer struct{ marker }

func (writer) Name() string      { return "writer" }
func (writer) Aliases() []string { return nil }
func (writer) Write(session.Reader, string, format.WriteOptions) ([]string, error) {
	return nil, nil
}

type holder struct{ writer }

func (holder) Name() string { return "holder" }
func (holder) Traits() format.Traits {
	return format.Traits{HoldsSession: true}
}

// The streaming policy is the layout's own declaration
// (Traits.HoldsSession), not a flag in the registry's list.
func TestStreamsFollowsTraits(t *testing.T) {
	saved := All
	All = []format.Format{marker{}, writer{}, holder{}}
	defer func() { All = saved }()
	for name, want := range map[string]bool{"marker": false, "writer": true, "holder": false} {
		if got := Streams(name); got != want {
			t.Errorf("Streams(%s) = %v, want %v", name, got, want)
		}
	}
}
