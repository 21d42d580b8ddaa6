package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/pipeline"
)

// A store exported as HTML is a site: a page per session and indexName
// listing them.
const indexName = "index.html"

// reserveIndex renames a session page that would be called index.html
// (a session whose id is "index"), so the index never replaces a page, and
// refuses an existing index before any page is written.
func reserveIndex(pl *pipeline.Plan, force bool) error {
	if p := filepath.Join(pl.Root, indexName); !force {
		if _, err := os.Lstat(p); err == nil {
			return IO(fmt.Errorf("%s: %w", p, atomicfile.ErrExists))
		}
	}
	used := map[string]bool{}
	for _, n := range pl.Names {
		used[strings.ToLower(n)] = true
	}
	for i, n := range pl.Names {
		if !strings.EqualFold(n, indexName) {
			continue
		}
		for k := 2; ; k++ {
			alt := fmt.Sprintf("index-%d.html", k)
			if !used[alt] {
				pl.Names[i], used[alt] = alt, true
				break
			}
		}
	}
	return nil
}

// writeIndex writes the site's index atomically; an existing one is kept
// unless force, as every output is.
func writeIndex(env *Env, path string, es []html.IndexEntry, force bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return IO(fmt.Errorf("create %s: %w", filepath.Dir(path), err))
	}
	f, err := atomicfile.Create(path, 0o644, force)
	if err != nil {
		return IO(err)
	}
	if err := html.WriteIndex(f, es); err != nil {
		f.Abort()
		return IO(fmt.Errorf("write %s: %w", path, err))
	}
	if err := f.Commit(); err != nil {
		return IO(err)
	}
	fmt.Fprintln(env.Stdout, path)
	return nil
}
