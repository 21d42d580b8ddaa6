package pipeline

import (
	"testing"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

type storedMarker struct{ marker }

func (storedMarker) Name() string         { return "stored" }
func (storedMarker) DefaultStore() string { return "/home/u/.stored" }

func TestResolve(t *testing.T) {
	withMarker(t)
	registry.All = append([]format.Format{storedMarker{}}, registry.All...) // the default (last) stays marker, which has no store
	for _, tc := range []struct {
		name   string
		paths  []string
		format string
		data   bool
		want   string
		code   int
	}{
		{"paths given", []string{"a", "b"}, "", true, "a b", 0},
		{"piped data", nil, "", true, "-", 0},
		// a directory layout cannot come on standard input: its store is read
		{"piped data, directory layout named", nil, "stored", true, "/home/u/.stored", 0},
		{"no data, layout named", nil, "stored", false, "/home/u/.stored", 0},
		{"no data, default layout without a store", nil, "", false, "", exitcode.Usage},
		{"unknown layout", nil, "nope", false, "", exitcode.Usage},
	} {
		got, err := Resolve(tc.paths, tc.format, tc.data)
		if exitcode.Of(err) != tc.code || join(got) != tc.want {
			t.Errorf("%s: %q, %v; want %q, exit %d", tc.name, got, err, tc.want, tc.code)
		}
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}
