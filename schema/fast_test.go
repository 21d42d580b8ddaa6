package schema

import "testing"

// Every shipped schema must have a fast path: a schema without one still
// validates correctly, but at the full validator's speed.
func TestFastCompilesEverySchema(t *testing.T) {
	for _, name := range List() {
		if _, err := FastCompile(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
