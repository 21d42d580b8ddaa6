package main

import (
	"testing"

	"github.com/sesstool/sesstool/command"
	"github.com/sesstool/sesstool/registry"
)

// A layout's write option becomes one of convert's flags: its name must
// not be one convert already has (-o, --force, --session, ...), nor an
// alias of one, or one of the two would be lost.
func TestWriteOptionFlagsDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range convertCmd(&command.Env{}).Flags {
		for _, n := range f.Names() {
			if seen[n] {
				t.Errorf("convert has two flags named %q", n)
			}
			seen[n] = true
		}
	}
	for _, o := range registry.WriteOptions() {
		if !seen[o.Name] {
			t.Errorf("convert offers no --%s, which %v declare", o.Name, o.Layouts)
		}
	}
}
