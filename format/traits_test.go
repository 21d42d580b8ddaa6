package format

import (
	"reflect"
	"testing"
)

// A writer is handed only the values of the options its layout declares,
// and reads a switch as given or not.
func TestTraitsGiven(t *testing.T) {
	tr := Traits{Options: []Option{{Name: "project", Usage: "p"}, {Name: "cut", Usage: "c", Switch: true}}}
	cases := []struct {
		name    string
		v       OptionValues
		want    OptionValues
		project string
		cut     bool
	}{
		{"none given", nil, nil, "", false},
		{"only another layout's", OptionValues{"other": "x"}, nil, "", false},
		{"declared and not", OptionValues{"project": "p1", "other": "x"}, OptionValues{"project": "p1"}, "p1", false},
		{"switch on", OptionValues{"cut": "true"}, OptionValues{"cut": "true"}, "", true},
		{"switch off", OptionValues{"cut": "false"}, OptionValues{"cut": "false"}, "", false},
	}
	for _, c := range cases {
		got := tr.Given(c.v)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: given %v, want %v", c.name, got, c.want)
		}
		if p := got.String("project"); p != c.project {
			t.Errorf("%s: project %q, want %q", c.name, p, c.project)
		}
		if b := got.Bool("cut"); b != c.cut {
			t.Errorf("%s: cut %v, want %v", c.name, b, c.cut)
		}
	}
	if got := TraitsOf(nil); !reflect.DeepEqual(got, Traits{}) {
		t.Errorf("TraitsOf(nil) = %+v, want the zero Traits", got)
	}
}
