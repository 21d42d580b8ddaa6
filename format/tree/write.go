package tree

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// Versions are the layout's versions, oldest first.
var Versions = []string{"1", "2", "3"}

// Newest is the version written for sessions from other formats.
const Newest = "3"

// WriteTo writes one session as JSONL. A session read from this format is
// written in the version it came with; everything else as v3. Each line is
// encoded from the model and, for entries read from this format, merged with
// the bytes they were read from, so what the model did not change keeps its
// source spelling byte for byte.
func (Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	// r is adapted for pi already (convert.For): sub-agent runs and side
	// files have no place in pi's file
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	if rd, ok := verbatim(r); ok {
		return rd.copyLines(bw)
	}
	m := r.Meta()
	own := m.Origin == Name
	version := Newest
	if own && known(m.Version) {
		version = m.Version
	}
	meta := *m
	meta.Extra = headerExtras(m)
	if n := note(m); n != nil && n.TitleSlot != nil {
		bw.Write(n.TitleSlot)
		bw.WriteByte('\n')
		if n.TitleOnlyInSlot {
			meta.Title = ""
		}
	}
	if !own {
		meta.Extra = nil // counted by convert.Adapt
	}
	var fx *foreign
	if !own {
		fx = newForeign(m)
		meta.ID = fx.ids.Session()
	}
	h := encodeHeader(&meta, version)
	if own && m.Raw != nil {
		h = jsonx.Merge(m.Raw, h)
	}
	bw.Write(h)
	bw.WriteByte('\n')
	enc := &encoder{version: version, foreign: !own}
	enc.clock.Start(m.Created)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		enc.foreign = e.Origin != Name
		if enc.foreign && fx == nil {
			// A session of pi's own passes through convert untouched, so
			// nothing adapted this entry: writing it by pi's rules for
			// another layout's would count none of what it loses.
			return fmt.Errorf("entry %s: of %s, in a session of pi's own: pi writes another layout's entries only in a session converted from it", e.ID, e.Origin)
		}
		if enc.foreign {
			e = fx.entry(e)
		}
		b := enc.entry(e)
		if !enc.foreign && e.Raw != nil {
			b = jsonx.Merge(e.Raw, b)
		}
		bw.Write(b)
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func known(v string) bool {
	for _, k := range Versions {
		if v == k {
			return true
		}
	}
	return false
}

// Write writes one session to the file out (created atomically).
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("write %s: %w", out, err)
	}
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}
