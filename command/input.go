package command

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

// Stdin is the path that means standard input.
const Stdin = "-"

// Env is what commands read from and write to; tests swap it.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// StdinIsData reports whether standard input is a pipe or a redirected
	// file (not a terminal, not /dev/null, not closed).
	StdinIsData func() bool
	// StderrIsTerminal reports whether progress bars may be drawn.
	StderrIsTerminal func() bool
	// Color reports whether standard output may be coloured.
	Color bool
	// HoldInput, when set, is called before a command reads its whole
	// input into memory (a store a format.Loader reads at once), so the
	// memory limit set for streaming commands can be lifted.
	HoldInput func()
}

// DefaultStorer is implemented by layouts that have a conventional store
// location on a user's machine (used when PATH is omitted).
type DefaultStorer interface {
	DefaultStore() string
}

// resolveInputs applies CLI.md's rule for an omitted PATH: standard input when
// it carries data, else the named layout's default store.
func resolveInputs(env *Env, paths []string, formatName string) ([]string, error) {
	if len(paths) > 0 {
		return paths, nil
	}
	// A directory layout cannot come on standard input (CLI.md: file
	// formats only), so naming one means its default store even when
	// standard input is a pipe (a script, a CI job, an editor's terminal).
	if env.StdinIsData != nil && env.StdinIsData() && !directoryLayout(formatName) {
		return []string{Stdin}, nil
	}
	if formatName == "" || formatName == "auto" {
		formatName = "tree"
	}
	f, err := registry.Lookup(formatName)
	if err != nil {
		return nil, Usage("%v", err)
	}
	ds, ok := f.(DefaultStorer)
	if !ok {
		return nil, Usage("missing PATH (%s has no default store)", f.Name())
	}
	return []string{ds.DefaultStore()}, nil
}

// directoryLayout reports whether name is a layout that is not a single file.
func directoryLayout(name string) bool {
	f, err := registry.Lookup(name)
	if err != nil {
		return false
	}
	_, stream := f.(format.Stream)
	return !stream
}

// lookupFormat resolves a --format/--from value; "" and "auto" mean detect.
func lookupFormat(name string) (format.Format, error) {
	if name == "" || name == "auto" {
		return nil, nil
	}
	f, err := registry.Lookup(name)
	if err != nil {
		return nil, Usage("%v", err)
	}
	return f, nil
}

// stdinFormat peeks at standard input and finds its single-file layout.
func stdinFormat(r io.Reader, forced format.Format) (format.Stream, *bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(1 << 16)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, IO(fmt.Errorf("read standard input: %w", err))
	}
	f := forced
	if f == nil {
		f = registry.DetectHead(head)
	}
	if f == nil {
		return nil, nil, Invalid("standard input: not a session in any known single-file format")
	}
	s, ok := f.(format.Stream)
	if !ok {
		return nil, nil, Usage("%s is a directory layout and cannot be read from standard input", f.Name())
	}
	return s, br, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
