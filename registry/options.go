package registry

import (
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// WriteOption is one option the writers of some layouts take
// (format.Traits.Options), as convert offers it.
type WriteOption struct {
	format.Option
	// Layouts are the names of the layouts that declare it, in detection
	// order.
	Layouts []string
}

// WriteOptions is every option a registered layout's writer takes, sorted
// by name, each once with the layouts that declare it: convert's flags
// beyond its own come from here, so a layout's option needs no line in
// main.go. An option is taken with the meaning its first layout declares;
// TestTraits requires every other to declare the same.
func WriteOptions() []WriteOption {
	var out []WriteOption
	at := map[string]int{}
	for _, f := range All {
		for _, o := range format.TraitsOf(f).Options {
			i, seen := at[o.Name]
			if !seen {
				i = len(out)
				at[o.Name] = i
				out = append(out, WriteOption{Option: o})
			}
			out[i].Layouts = append(out[i].Layouts, f.Name())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Help is the option's flag help: its Usage, then, in parentheses, the
// layouts that take it which Usage does not name itself ("project id to
// file sessions under (opencode, opencode-export)"; goat's
// --truncate-messages says "(goat: a 10 MiB line)" in its own words).
func (o WriteOption) Help() string {
	var rest []string
	for _, n := range o.Layouts {
		if !spells(o.Usage, n) {
			rest = append(rest, n)
		}
	}
	if len(rest) == 0 {
		return o.Usage
	}
	return o.Usage + " (" + strings.Join(rest, ", ") + ")"
}

// spells reports whether text spells the layout name as a word of its own
// (opencode in "(opencode: ...)", not in "opencode-export").
func spells(text, name string) bool {
	word := func(c byte) bool {
		return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		if (k == 0 || !word(text[k-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = k + 1
	}
}
