package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/format"
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

// siteRun is what a site export knows of the site it updates.
type siteRun struct {
	dir  string    // where the manifest was looked for (-o, or ".")
	old  *manifest // nil: none there, the directory is not a site yet
	opts string    // siteOptions
	// byKey are the old manifest's pages; ours are their names (what this
	// run may overwrite without --force: pages it made)
	byKey map[string]*sitePage
	ours  map[string]bool
	// kept are the sessions this run carries over unchanged (their pages
	// are not written), fps the fingerprints of those it renders, by job
	kept map[string]*sitePage
	fps  []fingerprint
}

// openSite reads the manifest where a site export of o would go. Its
// pages are carried over only when they were made with the same options
// and o does not --force.
func openSite(o ExportOptions) (*siteRun, error) {
	dir := o.Out
	if dir == "" {
		dir = "."
	}
	s := &siteRun{dir: dir, opts: siteOptions(o), byKey: map[string]*sitePage{}, ours: map[string]bool{},
		kept: map[string]*sitePage{}}
	if o.Out == "-" {
		return s, nil
	}
	m, err := readManifest(dir)
	if err != nil && !o.Force {
		return nil, err
	}
	s.old = m
	if m != nil {
		for i := range m.Pages {
			p := &m.Pages[i]
			s.ours[p.Page] = true
			if m.Options == s.opts && !o.Force {
				s.byKey[pageKey(p.Source, p.ID)] = p
			}
		}
	}
	return s, nil
}

// incremental reports whether unchanged sessions can be carried over.
func (s *siteRun) incremental() bool { return len(s.byKey) > 0 }

// only is the pipeline's Keep for an incremental run: a session is read
// and its page written only when it is new, its page is gone, or its
// files changed. Their size, time and count are compared first; the hash
// is computed only when those differ, and a session whose content hashes
// the same is carried over too (a file touched, not changed).
func (s *siteRun) only(u pipeline.Unit, ref format.Ref) bool {
	k, srcs := s.key(u, ref)
	fp, err := statSources(srcs)
	if err != nil {
		return true // reading it says what is wrong
	}
	old := s.byKey[k]
	if old == nil || !s.pageThere(old.Page) {
		return true
	}
	if !fp.sameStat(old.fingerprint) {
		if fp.Hash, err = hashSources(srcs); err != nil || fp.Hash != old.Hash {
			return true
		}
	} else {
		fp.Hash = old.Hash
	}
	kept := *old
	kept.fingerprint = fp
	s.kept[k] = &kept
	return false
}

// key is the manifest key of a session and the files it is read from.
func (s *siteRun) key(u pipeline.Unit, ref format.Ref) (string, []string) {
	src, err := filepath.Abs(ref.Path)
	if err != nil {
		src = ref.Path
	}
	return pageKey(src, ref.ID), sessionSources(u, ref)
}

func (s *siteRun) pageThere(name string) bool {
	fi, err := os.Stat(filepath.Join(s.dir, name))
	return err == nil && fi.Mode().IsRegular()
}

// fingerprint is taken of each session to render before it is read, so a
// session that grows meanwhile is seen as changed by the next run rather
// than carried over with a page of less than it holds.
func (s *siteRun) fingerprint(j pipeline.Job) fingerprint {
	_, srcs := s.key(pipeline.Unit{Format: j.Format, Path: j.Unit}, j.Ref)
	fp, err := statSources(srcs)
	if err == nil {
		fp.Hash, err = hashSources(srcs)
	}
	if err != nil {
		fp = fingerprint{} // never equal to the files': rendered again next time
	}
	return fp
}

// keyOf is a job's key in the manifest.
func (s *siteRun) keyOf(j pipeline.Job) string {
	k, _ := s.key(pipeline.Unit{Format: j.Format, Path: j.Unit}, j.Ref)
	return k
}

// name gives each session to render the page it had, and a new one a
// name no kept page has, so that no page carried over is replaced.
func (s *siteRun) name(pl *pipeline.Plan, keys []string) {
	used := map[string]bool{strings.ToLower(indexName): true}
	for _, p := range s.kept {
		used[strings.ToLower(p.Page)] = true
	}
	fresh := make([]bool, len(keys))
	for i, k := range keys {
		if old := s.byKey[k]; old != nil && !used[strings.ToLower(old.Page)] {
			pl.Names[i] = old.Page
			used[strings.ToLower(old.Page)] = true
		} else {
			fresh[i] = true
		}
	}
	for i := range keys {
		if !fresh[i] {
			continue
		}
		n := pl.Names[i]
		base := strings.TrimSuffix(n, ".html")
		for k := 2; used[strings.ToLower(n)]; k++ {
			n = fmt.Sprintf("%s-%d.html", base, k)
		}
		pl.Names[i] = n
		used[strings.ToLower(n)] = true
	}
}

// checkFree refuses, before anything is read, a page that would replace
// a file this site did not make (the manifest does not list it), unless
// --force: a site's own pages are its to update, anything else in the
// directory is kept as every output is.
func (s *siteRun) checkFree(pl *pipeline.Plan, force bool) error {
	for i, p := range pl.Paths() {
		if force || s.ours[pl.Names[i]] {
			continue
		}
		target, err := atomicfile.Resolve(p)
		if err != nil {
			return IO(err)
		}
		if _, err := os.Lstat(target); err == nil {
			return IO(fmt.Errorf("%s %w", p, atomicfile.ErrExists))
		}
	}
	return nil
}

// finish writes the index of every session of the run (those rendered,
// whose summaries are in fresh, and those carried over), removes the
// pages of sessions the run no longer has, and records the site.
func (s *siteRun) finish(env *Env, pl *pipeline.Plan, keys []string, fresh []html.IndexEntry, force bool) error {
	m := &manifest{Generator: "sesstool", Version: manifestVersion, Options: s.opts}
	var index []html.IndexEntry
	for i, k := range keys {
		src, id, _ := strings.Cut(k, "\x00")
		m.Pages = append(m.Pages, sitePage{Source: src, ID: id, Page: pl.Names[i], fingerprint: s.fps[i], Index: fresh[i]})
		index = append(index, fresh[i])
	}
	for _, p := range s.kept {
		p.Index.Href = p.Page
		m.Pages = append(m.Pages, *p)
		index = append(index, p.Index)
	}
	sort.Slice(m.Pages, func(i, j int) bool { return m.Pages[i].Page < m.Pages[j].Page })
	if err := writeIndex(env, filepath.Join(pl.Root, indexName), index, force || s.old != nil); err != nil {
		return err
	}
	live := map[string]bool{}
	for _, p := range m.Pages {
		live[p.Page] = true
	}
	removed := 0
	if s.old != nil {
		for _, p := range s.old.Pages {
			if live[p.Page] || !filepath.IsLocal(p.Page) || strings.EqualFold(p.Page, indexName) {
				continue
			}
			if err := os.Remove(filepath.Join(pl.Root, p.Page)); err == nil {
				removed++
			} else if !errors.Is(err, fs.ErrNotExist) {
				return IO(fmt.Errorf("remove %s: %w", filepath.Join(pl.Root, p.Page), err))
			}
		}
	}
	if err := writeManifest(pl.Root, m); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "%s: %s written, %s unchanged, %s removed\n", pl.Root,
		html.Plural(len(keys), "page"), html.Plural(len(s.kept), "page"), html.Plural(removed, "page"))
	return nil
}
