package format

import "strconv"

// Traits is what a layout declares, beside what it holds (Caps), of how
// sesstool handles it: whether its writer holds a whole session, whether
// its validator keeps state until the file's end, and the options its
// writer takes. It is data in the layout's caps.go, as Caps is, so that
// the registry, the pipeline and the command line read one declaration
// instead of asking for marker methods, and WriteOptions carries no field
// that serves one layout.
type Traits struct {
	// HoldsSession: the writer holds a whole session in memory before
	// writing it (a directory layout whose files are written together, or
	// one JSON document). Converting to it lifts the memory limit set for
	// streaming commands, which would otherwise keep the collector running
	// all the time, and its session is adapted from one reading (no
	// Reopen). A writer whose memory stays flat in the session's size (a
	// JSONL file written line by line, or one that reads the session twice
	// with Reopen) leaves it false. Only a Writer declares it.
	HoldsSession bool
	// AccumulatesWhenValidating: the validator of this single-file layout
	// keeps a few bytes per entry until the file's end, for rules across
	// the file (OpenCode's export: its message ids). An input of it is
	// validated before it is read, not alongside (pipeline.GatherOptions),
	// so that what the validator keeps and what the reader's caller keeps
	// do not add up. Only a Stream declares it.
	AccumulatesWhenValidating bool
	// Options are the choices the layout's writer takes beyond the
	// WriteOptions every writer gets (OpenCode's project, goat's cut of a
	// line too long to read). convert offers each as a flag --<Name>, and
	// hands the writer the values given in WriteOptions.Options, only
	// those the target declares. An option two layouts declare under one
	// name has one meaning: the same Usage and Switch.
	Options []Option
}

// Option is one choice a layout's writer takes (Traits.Options).
type Option struct {
	// Name is the flag's name without its dashes ("project"), and the key
	// of its value in WriteOptions.Options.
	Name string
	// Usage is the flag's help. The command line adds the layouts that
	// take the option in parentheses, unless Usage names them itself.
	Usage string
	// Switch: the flag takes no value (--truncate-messages) and is "true"
	// when given; otherwise it takes one (--project ID).
	Switch bool
}

// OptionValues are the values of a layout's own options (Traits.Options)
// given to one write, by option name; an option not given is absent.
type OptionValues map[string]string

// String is the value of option name, "" when it was not given.
func (v OptionValues) String(name string) string { return v[name] }

// Bool reports whether the switch name was given.
func (v OptionValues) Bool(name string) bool {
	b, _ := strconv.ParseBool(v[name])
	return b
}

// Declared is implemented by layouts that declare Traits; a layout without
// it has the zero Traits: a writer that streams, a validator that keeps no
// state to the file's end, and no options of its own.
type Declared interface {
	Traits() Traits
}

// TraitsOf is f's declaration, or the zero Traits.
func TraitsOf(f Format) Traits {
	if d, ok := f.(Declared); ok {
		return d.Traits()
	}
	return Traits{}
}

// Given are the values in v of the options t declares: what convert hands
// a writer of the layout, so that a writer reads no option it does not
// declare. nil when none of them was given.
func (t Traits) Given(v OptionValues) OptionValues {
	var out OptionValues
	for _, o := range t.Options {
		if x, ok := v[o.Name]; ok {
			if out == nil {
				out = OptionValues{}
			}
			out[o.Name] = x
		}
	}
	return out
}
