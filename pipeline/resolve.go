package pipeline

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	named := f != nil
	if f == nil {
		f = registry.Default()
	}
	ds, ok := f.(format.DefaultStorer)
	if !ok {
		return nil, exitcode.Usagef("missing PATH (%s has no default store)", f.Name())
	}
	store := ds.DefaultStore()
	if _, err := os.Stat(store); !named && errors.Is(err, fs.ErrNotExist) {
		// Nothing named a layout and the default one's store is not here:
		// the user most likely runs another agent. Name the stores that
		// are here, so that --format is found without reading the docs.
		return nil, exitcode.IOError(fmt.Errorf("no %s store at %s; %s", registry.Choices([]string{f.Name()}), tilde(store), storesFound(f)))
	}
	return []string{store}, nil
}

// storesFound names the other layouts whose default store exists on this
// machine, for the hint given when the default layout's store is missing.
func storesFound(skip format.Format) string {
	var found []string
	for _, f := range registry.All {
		ds, ok := f.(format.DefaultStorer)
		if !ok || f.Name() == skip.Name() {
			continue
		}
		if _, err := os.Stat(ds.DefaultStore()); err == nil {
			found = append(found, fmt.Sprintf("%s (%s)", f.Name(), tilde(ds.DefaultStore())))
		}
	}
	if len(found) == 0 {
		return "no other agent's default store was found either; name a PATH"
	}
	return "found stores: " + strings.Join(found, ", ") + "; use --format NAME, or name a PATH"
}

// tilde spells a path under the home directory as ~/..., as users know it.
func tilde(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return filepath.Join("~", rel)
	}
	return p
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
