// Package progress draws a progress bar on standard error for long runs over
// many sessions, and nothing at all when standard error is not a terminal.
package progress

import (
	"io"

	"github.com/schollz/progressbar/v3"
)

// Bar counts finished items. A nil *Bar is valid and does nothing.
type Bar struct {
	b *progressbar.ProgressBar
}

// New returns a bar over total items when show is true and total > 1 (a
// single item needs no bar), else nil.
func New(w io.Writer, total int, label string, show bool) *Bar {
	if !show || total <= 1 {
		return nil
	}
	return &Bar{b: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000),
	)}
}

// Add marks one more item done.
func (p *Bar) Add() {
	if p != nil {
		_ = p.b.Add(1)
	}
}

// Done removes the bar.
func (p *Bar) Done() {
	if p != nil {
		_ = p.b.Finish()
	}
}

// Describe names the item being worked on.
func (p *Bar) Describe(name string) {
	if p != nil {
		p.b.Describe(name)
	}
}

// Clear erases the bar so other output starts on a clean line; the next
// Add draws it again.
func (p *Bar) Clear() {
	if p != nil {
		_ = p.b.Clear()
	}
}
