package pipeline

import (
	"bufio"
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

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
	// standard input is a pipe (a script, a CI job, an editor's terminal);
	// ResolveOne lets convert and export read a transcript on it.
	if stdinIsData && (f == nil || isStream(f)) {
		return []string{Stdin}, nil
	}
	if f == nil {
		f = registry.Default()
	}
	ds, ok := f.(format.DefaultStorer)
	if !ok {
		return nil, exitcode.Usagef("missing PATH (%s has no default store)", f.Name())
	}
	return []string{ds.DefaultStore()}, nil
}

// ResolveOne is Resolve for the commands that read one PATH through a
// spooled copy (convert, export): a directory layout whose session may be
// a single file (format.FileOnStdin, a Claude Code transcript) reads a pipe
// that carries data, and its default store when the pipe is empty (a
// script's, a CI job's). stdin is what to read standard input from.
func ResolveOne(paths []string, formatName string, stdinIsData bool, stdin *bufio.Reader) ([]string, error) {
	if len(paths) == 0 && stdinIsData {
		if f, err := LookupFormat(formatName); err == nil && f != nil && onStdin(f) {
			if _, err := stdin.Peek(1); err == nil {
				return []string{Stdin}, nil
			}
		}
	}
	return Resolve(paths, formatName, stdinIsData)
}

// onStdin says whether a directory layout takes one session file on
// standard input (format.FileOnStdin).
func onStdin(f format.Format) bool {
	_, ok := f.(format.FileOnStdin)
	return ok
}

func isStream(f format.Format) bool {
	_, ok := f.(format.Stream)
	return ok
}
