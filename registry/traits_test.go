package registry

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// flagName is what convert can offer as --<name>: one word or more joined
// by dashes, longer than the one-letter -o.
var flagName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// traitsProblems lists what is inconsistent in the Traits of fs: a
// declaration the layout's interfaces do not back, an option convert could
// not offer, and an option two layouts declare with two meanings.
func traitsProblems(fs []format.Format) []string {
	var out []string
	first := map[string]format.Option{}
	firstBy := map[string]string{}
	for _, f := range fs {
		tr := format.TraitsOf(f)
		_, writer := f.(format.Writer)
		_, stream := f.(format.Stream)
		if tr.HoldsSession && !writer {
			out = append(out, fmt.Sprintf("%s holds the session to write it, but is no format.Writer", f.Name()))
		}
		if tr.AccumulatesWhenValidating && !stream {
			out = append(out, fmt.Sprintf("%s accumulates when validating, but is no single-file layout (format.Stream)", f.Name()))
		}
		if len(tr.Options) > 0 && !writer {
			out = append(out, fmt.Sprintf("%s declares write options, but is no format.Writer", f.Name()))
		}
		seen := map[string]bool{}
		for _, o := range tr.Options {
			if len(o.Name) < 2 || !flagName.MatchString(o.Name) {
				out = append(out, fmt.Sprintf("%s: option %q is no flag name (lower-case words joined by dashes)", f.Name(), o.Name))
			}
			if strings.TrimSpace(o.Usage) == "" {
				out = append(out, fmt.Sprintf("%s: option %q has no help", f.Name(), o.Name))
			}
			if seen[o.Name] {
				out = append(out, fmt.Sprintf("%s declares option %q twice", f.Name(), o.Name))
			}
			seen[o.Name] = true
			if p, ok := first[o.Name]; ok && p != o {
				out = append(out, fmt.Sprintf("option %q means %+v for %s but %+v for %s", o.Name, p, firstBy[o.Name], o, f.Name()))
			} else if !ok {
				first[o.Name], firstBy[o.Name] = o, f.Name()
			}
		}
	}
	return out
}

// Every registered layout's declaration is consistent, and convert's help
// of each option names every layout that takes it.
func TestTraits(t *testing.T) {
	for _, p := range traitsProblems(All) {
		t.Error(p)
	}
	for _, o := range WriteOptions() {
		for _, n := range o.Layouts {
			if !spells(o.Help(), n) {
				t.Errorf("--%s help %q does not name %s, which takes it", o.Name, o.Help(), n)
			}
		}
	}
}

// declares is a test layout with the Traits it is given.
type declares struct {
	marker
	name string
	tr   format.Traits
}

func (d declares) Name() string          { return d.name }
func (d declares) Traits() format.Traits { return d.tr }

type declaresWriter struct{ declares }

func (declaresWriter) Write(session.Reader, string, format.WriteOptions) ([]string, error) {
	return nil, nil
}

type declaresStream struct{ declaresWriter }

func (declaresStream) DetectHead([]byte) bool { return false }
func (declaresStream) ValidateReader(string, io.Reader, *report.Report, format.ValidateOptions) error {
	return nil
}
func (declaresStream) OpenReader(string, io.Reader) (session.Reader, error) { return nil, nil }
func (declaresStream) WriteTo(io.Writer, session.Reader, format.WriteOptions) error {
	return nil
}

// The consistency check finds each kind of inconsistency, and passes what
// is consistent.
func TestTraitsProblems(t *testing.T) {
	project := format.Option{Name: "project", Usage: "project id"}
	w := func(name string, tr format.Traits) format.Format {
		return declaresWriter{declares{name: name, tr: tr}}
	}
	cases := []struct {
		name string
		fs   []format.Format
		want string // in the one problem reported; "" for none
	}{
		{"consistent", []format.Format{
			w("a", format.Traits{HoldsSession: true, Options: []format.Option{project}}),
			w("b", format.Traits{Options: []format.Option{project, {Name: "cut", Usage: "cut", Switch: true}}}),
			declaresStream{declaresWriter{declares{name: "c", tr: format.Traits{AccumulatesWhenValidating: true}}}},
		}, ""},
		{"holds without writing", []format.Format{declares{name: "a", tr: format.Traits{HoldsSession: true}}}, "is no format.Writer"},
		{"accumulates in a directory layout", []format.Format{w("a", format.Traits{AccumulatesWhenValidating: true})}, "no single-file layout"},
		{"options without writing", []format.Format{declares{name: "a", tr: format.Traits{Options: []format.Option{project}}}}, "declares write options"},
		{"one letter", []format.Format{w("a", format.Traits{Options: []format.Option{{Name: "p", Usage: "x"}}})}, "no flag name"},
		{"dashes", []format.Format{w("a", format.Traits{Options: []format.Option{{Name: "--project", Usage: "x"}}})}, "no flag name"},
		{"no help", []format.Format{w("a", format.Traits{Options: []format.Option{{Name: "project"}}})}, "has no help"},
		{"twice", []format.Format{w("a", format.Traits{Options: []format.Option{project, project}})}, "twice"},
		{"two helps", []format.Format{
			w("a", format.Traits{Options: []format.Option{project}}),
			w("b", format.Traits{Options: []format.Option{{Name: "project", Usage: "another"}}}),
		}, `option "project" means`},
		{"switch and value", []format.Format{
			w("a", format.Traits{Options: []format.Option{project}}),
			w("b", format.Traits{Options: []format.Option{{Name: "project", Usage: "project id", Switch: true}}}),
		}, `option "project" means`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := traitsProblems(c.fs)
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("problems %q, want none", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
				t.Errorf("problems %q, want one saying %q", got, c.want)
			}
		})
	}
}

// convert's flags come from the declarations: each option once, sorted by
// name, with the layouts that take it, in order; its help names them
// unless its usage does.
func TestWriteOptions(t *testing.T) {
	saved := All
	defer func() { All = saved }()
	project := format.Option{Name: "project", Usage: "project id to file sessions under"}
	cut := format.Option{Name: "cut", Usage: "cut what x-y cannot read (x: 1 MiB)", Switch: true}
	All = []format.Format{
		marker{},
		declaresWriter{declares{name: "x", tr: format.Traits{Options: []format.Option{project, cut}}}},
		declaresWriter{declares{name: "x-y", tr: format.Traits{Options: []format.Option{project, cut}}}},
		declaresWriter{declares{name: "y", tr: format.Traits{Options: []format.Option{cut}}}},
	}
	got := WriteOptions()
	var names []string
	for _, o := range got {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"cut", "project"}) {
		t.Fatalf("options %q, want cut, project", names)
	}
	for _, c := range []struct {
		o       WriteOption
		layouts []string
		help    string
	}{
		{got[0], []string{"x", "x-y", "y"}, "cut what x-y cannot read (x: 1 MiB) (y)"},
		{got[1], []string{"x", "x-y"}, "project id to file sessions under (x, x-y)"},
	} {
		if !slices.Equal(c.o.Layouts, c.layouts) {
			t.Errorf("--%s is taken by %q, want %q", c.o.Name, c.o.Layouts, c.layouts)
		}
		if h := c.o.Help(); h != c.help {
			t.Errorf("--%s help %q, want %q", c.o.Name, h, c.help)
		}
	}
}
