package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/progress"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Convert moves sessions from one layout to another: the source layout's
// reader into the neutral model, the target layout's writer out of it. It
// never pairs layouts directly.
func Convert(env *Env, o ConvertOptions) error {
	target, w, err := convertTarget(o.To)
	if err != nil {
		return err
	}
	in, err := singleInput(env, "convert", o.From, o.Paths, o.Session)
	if err != nil {
		return err
	}
	defer in.clean()
	pl, err := planOutput(in, target, o.Out)
	if err != nil {
		return err
	}
	st, err := newStage(pl.stageNear)
	if err != nil {
		return err
	}
	defer st.remove()
	loss := &loss.Counter{}
	batch := map[string]bool{}
	for _, j := range in.jobs {
		batch[sessionIDOf(j)] = true
	}
	written, err := writeAll(env, in, w, st, pl, format.WriteOptions{Force: true, Loss: loss, Extra: o.Project, Batch: batch})
	if err != nil {
		return err
	}
	if err := checkOutput(env, target, st, pl); err != nil {
		return err
	}
	if err := reportLoss(env, o, in, loss); err != nil {
		return err
	}
	return pl.finish(env, st, written, o.Force)
}

func convertTarget(name string) (format.Format, format.Writer, error) {
	if name == "" {
		return nil, nil, Usage("convert needs --to (one of %s)", strings.Join(registry.Names(), ", "))
	}
	f, err := registry.Lookup(name)
	if err != nil {
		return nil, nil, Usage("%v", err)
	}
	w, ok := f.(format.Writer)
	if !ok {
		return nil, nil, Usage("sesstool cannot write %s", f.Name())
	}
	return f, w, nil
}

// writeAll writes every session into the stage and returns, per session,
// the staged path of the session's own file or directory.
func writeAll(env *Env, in *input, w format.Writer, st *stage, pl *outputPlan, opt format.WriteOptions) ([]string, error) {
	bar := progress.New(env.Stderr, len(in.jobs), "convert", env.StderrIsTerminal != nil && env.StderrIsTerminal())
	defer bar.Done()
	var written []string
	for i, j := range in.jobs {
		r, err := j.src.Open(j.ref)
		if err != nil {
			return nil, Invalid("%s: %v", displayPath(in, j.ref.Path), err)
		}
		dst := st.dir
		if pl.fileTarget {
			dst = filepath.Join(st.dir, pl.names[i])
		}
		o := opt
		o.Reopen = func() (session.Reader, error) { return j.src.Open(j.ref) } // standard input is spooled to a file
		paths, err := w.Write(r, dst, o)
		r.Close()
		if err != nil {
			return nil, IO(fmt.Errorf("convert %s: %w", displayPath(in, j.ref.Path), err))
		}
		if len(paths) > 0 {
			written = append(written, paths[0]) // the session's own file or directory
		}
		bar.Add()
	}
	return written, nil
}

// checkOutput validates what was written before it is moved into place: the
// target must pass `sesstool validate` every time.
func checkOutput(env *Env, target format.Format, st *stage, pl *outputPlan) error {
	units, _, err := registry.Walk(st.dir, target)
	if err != nil {
		return IO(err)
	}
	rep := &report.Report{MaxErrors: 20}
	for _, u := range units {
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{}); err != nil {
			return IO(err)
		}
	}
	if rep.Errors() == 0 {
		return nil
	}
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			f.Path = pl.final(st, f.Path)
			fmt.Fprintln(env.Stderr, f.Text())
		}
	}
	return Invalid("the converted output does not validate as %s (%d errors); nothing written. This is a bug in sesstool: please report it", target.Name(), rep.Errors())
}

// lossReport is the --loss-report document.
type lossReport struct {
	Input    string      `json:"input"`
	From     string      `json:"from"`
	To       string      `json:"to"`
	Sessions int         `json:"sessions"`
	Lossless bool        `json:"lossless"`
	Losses   []loss.Item `json:"losses"`
}

func reportLoss(env *Env, o ConvertOptions, in *input, lost *loss.Counter) error {
	items := lost.Items()
	for _, it := range items {
		fmt.Fprintf(env.Stderr, "loss: %s\n", it)
	}
	if o.LossReport != "" {
		doc := lossReport{Input: in.path, From: in.jobs[0].src.Name(), To: o.To, Sessions: len(in.jobs), Lossless: len(items) == 0, Losses: items}
		if doc.Losses == nil {
			doc.Losses = []loss.Item{}
		}
		b, _ := json.MarshalIndent(doc, "", "  ")
		if err := atomicfile.WriteFile(o.LossReport, append(b, '\n'), 0o644, true); err != nil {
			return IO(err)
		}
	}
	if o.Strict && len(items) > 0 {
		return Invalid("--strict: converting to %s would lose %d kinds of data (listed above); nothing written", o.To, len(items))
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName turns a session id into a file name that stays inside its folder.
func safeName(id string) string {
	n := strings.Trim(unsafeName.ReplaceAllString(id, "_"), "._")
	if n == "" {
		return "session"
	}
	return n
}
