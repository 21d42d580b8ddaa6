package command

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
)

// manifestName is the file a site keeps beside its pages: what each page
// was made from, so that a re-export renders only the sessions that
// changed. A directory holding it is a site sesstool made and may update.
const manifestName = ".sesstool-site.json"

// manifest is the content of manifestName.
type manifest struct {
	Generator string `json:"generator"` // "sesstool"
	Version   int    `json:"version"`   // of this file's shape
	// Options is what every page depends on besides its session: the
	// build and the flags that change a page (--redact, --leaf). Pages
	// made with other options are all made again.
	Options string     `json:"options"`
	Pages   []sitePage `json:"pages"`
}

const manifestVersion = 1

// sitePage is one session's page and what it was made from.
type sitePage struct {
	Source string `json:"source"`       // the session's file or directory (or its store's), absolute
	ID     string `json:"id,omitempty"` // its id in a store whose sessions share a file
	Page   string `json:"page"`         // the page's file name under the site
	fingerprint
	Index html.IndexEntry `json:"index"` // its row in the index, kept for the runs that do not read it
}

// fingerprint is what the files a session is read from were: their total
// size, newest modification time and count, which are compared first,
// and their hash, computed only when those differ.
type fingerprint struct {
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
	Files int    `json:"files"`
	Hash  string `json:"sha256"`
}

func (a fingerprint) sameStat(b fingerprint) bool {
	return a.Size == b.Size && a.MTime == b.MTime && a.Files == b.Files
}

// pageKey names a session in a manifest.
func pageKey(source, id string) string { return source + "\x00" + id }

// readManifest reads dir's manifest: nil when there is none. One that is
// not sesstool's (or is damaged) is an error, so a directory of someone
// else's is never taken for a site.
func readManifest(dir string) (*manifest, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil // not a directory (yet): no site there
	}
	p := filepath.Join(dir, manifestName)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, IO(fmt.Errorf("read %s: %w", p, err))
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Generator != "sesstool" {
		return nil, IO(fmt.Errorf("%s: not a sesstool site manifest (--force rebuilds the site and replaces it)", p))
	}
	if m.Version != manifestVersion {
		m.Pages = nil // another shape: every page is made again
	}
	return &m, nil
}

// writeManifest replaces dir's manifest atomically.
func writeManifest(dir string, m *manifest) error {
	p := filepath.Join(dir, manifestName)
	f, err := atomicfile.Create(p, 0o644, true)
	if err != nil {
		return IO(err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		f.Abort()
		return IO(fmt.Errorf("write %s: %w", p, err))
	}
	if err := f.Commit(); err != nil {
		return IO(err)
	}
	return nil
}

// siteOptions is manifest.Options for this build and these flags.
func siteOptions(o ExportOptions) string {
	build := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		build = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				build += " " + s.Value
			}
		}
		if exe, err := os.Executable(); err == nil {
			// a development build has no version of its own: its
			// binary's identity stands for it
			if fi, err := os.Stat(exe); err == nil && (bi.Main.Version == "" || bi.Main.Version == "(devel)") {
				build += " " + strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
			}
		}
	}
	return fmt.Sprintf("%s redact=%v leaf=%q", build, o.Redact, o.Leaf)
}

// sessionSources are the files and directories a session is read from: a
// session directory; a session file and the folder of the same name
// beside it (Claude Code's sub-agents and tool results); for sessions
// that share a file or are spread over a store's folders (a Ref with an
// id: OpenCode's database and JSON tree) the whole unit, so that any
// change to it renders its sessions again.
func sessionSources(u pipeline.Unit, ref format.Ref) []string {
	if ref.ID != "" {
		return []string{u.Path}
	}
	fi, err := os.Stat(ref.Path)
	if err != nil || fi.IsDir() {
		return []string{ref.Path}
	}
	out := []string{ref.Path}
	if side := pipeline.StripExt(ref.Path); side != ref.Path {
		if fi, err := os.Stat(side); err == nil && fi.IsDir() {
			out = append(out, side)
		}
	}
	return out
}

// statSources is the fingerprint of paths without its hash.
func statSources(paths []string) (fingerprint, error) {
	var fp fingerprint
	err := eachSourceFile(paths, func(p string, fi fs.FileInfo) error {
		fp.Size += fi.Size()
		fp.Files++
		fp.MTime = max(fp.MTime, fi.ModTime().UnixNano())
		return nil
	})
	return fp, err
}

// hashSources is the SHA-256 of every file of paths, each led by its
// name and size, in the walk's order.
func hashSources(paths []string) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	err := eachSourceFile(paths, func(p string, fi fs.FileInfo) error {
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(p), fi.Size())
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyBuffer(h, f, buf)
		return err
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// eachSourceFile calls fn for every regular file of paths (directories
// walked, links followed at the top only).
func eachSourceFile(paths []string, fn func(string, fs.FileInfo) error) error {
	for _, root := range paths {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			if !fi.Mode().IsRegular() {
				return nil
			}
			return fn(p, fi)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
