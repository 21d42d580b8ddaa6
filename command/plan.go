package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// outputPlan says where converted sessions go.
type outputPlan struct {
	toStdout   bool
	fileTarget bool     // single-file layout: one file per session
	root       string   // final directory that staged relative paths land in
	names      []string // file targets: each session's file name under root
	stageNear  string   // where the staging directory is made (same filesystem as root)
}

// extensioner is implemented by single-file layouts whose files do not end in .jsonl.
type extensioner interface{ Ext() string }

func extOf(f format.Format) string {
	if e, ok := f.(extensioner); ok {
		return e.Ext()
	}
	return ".jsonl"
}

// planOutput applies CLI.md: -o - is standard output; -o FILE for one
// session of a file layout; -o DIR (default: the current directory) for a
// store; without -o, next to the input with a derived name; standard input
// without -o goes to standard output, as a filter does.
func planOutput(in *input, target format.Format, out string) (*outputPlan, error) {
	_, fileTarget := target.(format.Stream)
	pl := &outputPlan{fileTarget: fileTarget}
	single := len(in.jobs) == 1
	if out == "-" || (out == "" && in.path == Stdin) {
		if !fileTarget {
			return nil, Usage("%s is a directory layout: give -o DIR", target.Name())
		}
		if !single {
			return nil, Usage("standard output holds one session; pick one with --session or give -o DIR")
		}
		pl.toStdout = true
		pl.root = os.TempDir()
		pl.names = []string{"out" + extOf(target)}
		pl.stageNear = pl.root
		return pl, nil
	}
	switch {
	case fileTarget && single && !isExistingDir(out) && (out != "" || !in.store):
		file := out
		if file == "" {
			file = derivedName(in.path, target) + extOf(target)
		}
		pl.root, pl.names = filepath.Dir(file), []string{filepath.Base(file)}
	case fileTarget:
		pl.root = defaultDir(out)
		seen := map[string]int{}
		for _, j := range in.jobs {
			n := safeName(sessionIDOf(j))
			if seen[n]++; seen[n] > 1 {
				n = fmt.Sprintf("%s-%d", n, seen[n])
			}
			pl.names = append(pl.names, n+extOf(target))
		}
	case out == "" && single && !in.store:
		pl.root = derivedName(in.path, target)
	default:
		pl.root = defaultDir(out)
	}
	pl.stageNear = nearestDir(pl.root)
	return pl, nil
}

// derivedName is the input path without its extension, plus the target's
// name: s.jsonl -> s.flat, a/sess/ -> a/sess.goat.
func derivedName(p string, target format.Format) string {
	return stripExt(p) + "." + target.Name()
}

// stripExt drops a session file's extension (.jsonl, .json, .db); a
// directory keeps its whole name.
func stripExt(p string) string {
	p = strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator))
	if ext := filepath.Ext(p); ext == ".jsonl" || ext == ".json" || ext == ".db" {
		p = strings.TrimSuffix(p, ext)
	}
	return p
}

func defaultDir(out string) string {
	if out == "" {
		return "."
	}
	return out
}

func isExistingDir(p string) bool {
	fi, err := os.Stat(p)
	return p != "" && err == nil && fi.IsDir()
}

// nearestDir is the closest existing ancestor of p (p itself if it exists),
// so the stage shares its filesystem and renames stay atomic.
func nearestDir(p string) string {
	p = filepath.Clean(p)
	for {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
	}
}

// final maps a staged path to where it will land.
func (pl *outputPlan) final(st *stage, staged string) string {
	rel, err := filepath.Rel(st.dir, staged)
	if err != nil || !filepath.IsLocal(rel) {
		return staged
	}
	if pl.toStdout {
		return "<stdout>"
	}
	return filepath.Join(pl.root, rel)
}

// finish moves the stage into place (or copies it to standard output) and
// prints what was written.
func (pl *outputPlan) finish(env *Env, st *stage, written []string, force bool) error {
	if pl.toStdout {
		return st.copyTo(env.Stdout, pl.names[0])
	}
	if err := st.commit(pl.root, force); err != nil {
		return err
	}
	if pl.fileTarget {
		written = nil
		for _, n := range pl.names {
			written = append(written, filepath.Join(st.dir, n))
		}
	}
	for _, w := range written {
		fmt.Fprintln(env.Stdout, pl.final(st, w))
	}
	return nil
}
