package pipeline

import (
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

// DefaultStorer is implemented by layouts that have a conventional store
// location on a user's machine (used when PATH is omitted).
type DefaultStorer interface {
	DefaultStore() string
}

// LookupFormat resolves a --format/--from value; "" and "auto" mean detect
// (nil). An unknown name is a usage error.
func LookupFormat(name string) (format.Format, error) {
	if name == "" || name == "auto" {
		return nil, nil
	}
	f, err := registry.Lookup(name)
	if err != nil {
		return nil, exitcode.Usagef("%v", err)
	}
	return f, nil
}

// Resolve applies CLI.md's rule for an omitted PATH: standard input when it
// carries data, else the default store of the named layout (of the
// registry's default layout when none is named).
func Resolve(paths []string, formatName string, stdinIsData bool) ([]string, error) {
	if len(paths) > 0 {
		return paths, nil
	}
	f, err := LookupFormat(formatName)
	if err != nil {
		return nil, err
	}
	// A directory layout cannot come on standard input (CLI.md: file
	// formats only), so naming one means its default store even when
	// standard input is a pipe (a script, a CI job, an editor's terminal).
	if stdinIsData && (f == nil || isStream(f)) {
		return []string{Stdin}, nil
	}
	if f == nil {
		f = registry.Default()
	}
	ds, ok := f.(DefaultStorer)
	if !ok {
		return nil, exitcode.Usagef("missing PATH (%s has no default store)", f.Name())
	}
	return []string{ds.DefaultStore()}, nil
}

func isStream(f format.Format) bool {
	_, ok := f.(format.Stream)
	return ok
}
