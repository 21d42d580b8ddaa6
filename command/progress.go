package command

import (
	"fmt"
	"io"
	"strings"
)

// progress is a one-line bar on standard error for long runs over many
// sessions. It draws only when standard error is a terminal, so pipes and
// logs see nothing extra. (A dozen lines do not justify a dependency.)
type progress struct {
	w     io.Writer
	on    bool
	total int
	done  int
	name  string
}

func newProgress(env *Env, total int) *progress {
	on := total > 1 && env.StderrIsTerminal != nil && env.StderrIsTerminal()
	return &progress{w: env.Stderr, on: on, total: total}
}

// start shows that the next item, name, is being worked on.
func (p *progress) start(name string) {
	p.name = name
	p.draw()
}

// finish counts the current item as done.
func (p *progress) finish() {
	p.done++
	p.draw()
}

// clear removes the bar, so other output starts on a clean line; the next
// start or finish draws it again.
func (p *progress) clear() {
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *progress) draw() {
	if !p.on {
		return
	}
	const width = 30
	fill := width * p.done / p.total
	name := p.name
	if len(name) > 40 {
		name = "…" + name[len(name)-39:]
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %d/%d %s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.done, p.total, name)
}
