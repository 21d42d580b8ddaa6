// Package report collects validation findings and prints them as CLI.md says:
// one text line per finding, or NDJSON, sorted by path then line.
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Severity of a finding.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem in one place.
type Finding struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column,omitempty"`
	Pointer  string   `json:"pointer"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
}

// Text renders f as PATH:LINE[:COLUMN]: severity: MESSAGE [at POINTER] (RULE).
func (f Finding) Text() string {
	loc := fmt.Sprintf("%s:%d", f.Path, f.Line)
	if f.Column > 0 {
		loc += fmt.Sprintf(":%d", f.Column)
	}
	msg := f.Message
	if f.Pointer != "" {
		msg += " at " + f.Pointer
	}
	return fmt.Sprintf("%s: %s: %s (%s)", loc, f.Severity, msg, f.Rule)
}

// Report gathers findings from any number of goroutines. MaxErrors > 0 stops
// keeping errors past that many (they are still counted). Spill > 0 bounds
// the heap the kept findings take, in bytes: past it they are sorted and
// moved to a temporary file (spill.go); Close removes it.
type Report struct {
	MaxErrors int
	Spill     int

	mu       sync.Mutex
	findings []Finding
	held     int    // the kept findings' weight
	spool    *spool // the runs spilled, nil when none
	spillErr error  // the first spill that failed: the findings stay held
	errors   int
	warnings int
	files    int
	entries  int
	formats  map[string]int
}

// Add records a finding.
func (r *Report) Add(f Finding) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f.Severity == Error {
		r.errors++
		if r.MaxErrors > 0 && r.errors > r.MaxErrors {
			return
		}
	} else {
		r.warnings++
	}
	r.findings = append(r.findings, f)
	if r.Spill <= 0 || r.spillErr != nil {
		return
	}
	r.held += weight(f)
	if r.held > r.Spill {
		sortFindings(r.findings)
		if r.spillErr = r.spill(r.findings); r.spillErr == nil {
			clear(r.findings) // the strings go with the run
			r.findings, r.held = r.findings[:0], 0
		}
	}
}

// Errorf records an error.
func (r *Report) Errorf(path string, line int, pointer, rule, format string, args ...any) {
	r.Add(Finding{Path: path, Line: line, Pointer: pointer, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// Warnf records a warning.
func (r *Report) Warnf(path string, line int, pointer, rule, format string, args ...any) {
	r.Add(Finding{Path: path, Line: line, Pointer: pointer, Severity: Warning, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// Counted adds to the summary: one file of the given format with n entries.
func (r *Report) Counted(format string, files, entries int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.formats == nil {
		r.formats = map[string]int{}
	}
	r.files += files
	r.entries += entries
	if format != "" {
		r.formats[format] += files
	}
}

// Errors returns how many errors were found.
func (r *Report) Errors() int { r.mu.Lock(); defer r.mu.Unlock(); return r.errors }

// Warnings returns how many warnings were found.
func (r *Report) Warnings() int { r.mu.Lock(); defer r.mu.Unlock(); return r.warnings }

// Findings returns the kept findings sorted by path, line, column (all in
// memory: Each streams them).
func (r *Report) Findings() []Finding {
	var out []Finding
	r.Each(func(f Finding) error { out = append(out, f); return nil }) // an unreadable spill ends the list
	return out
}

// Each yields the kept findings sorted by path, line, column; findings
// with the same place keep the order they were added in.
func (r *Report) Each(yield func(Finding) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	sortFindings(r.findings)
	return r.spool.merge(r.findings, yield)
}

// Drain yields the kept findings as Each does, then forgets them (they
// stay counted): a command prints a file's findings once it is read, and
// they cost nothing after. Its error is the first of a spill that failed,
// of reading the spill back, or of yield.
func (r *Report) Drain(yield func(Finding) error) error {
	err := r.Each(yield)
	r.mu.Lock()
	defer r.mu.Unlock()
	err = cmp.Or(r.spillErr, err)
	r.findings, r.held, r.spillErr = nil, 0, nil
	r.closeSpool()
	return err
}

// Close removes the temporary file of spilled findings, if any.
func (r *Report) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeSpool()
}

func (r *Report) closeSpool() {
	if r.spool != nil {
		r.spool.f.Close()
		r.spool = nil
	}
}

// Summary is the closing line's data.
type Summary struct {
	Files    int            `json:"files"`
	Entries  int            `json:"entries"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	Formats  map[string]int `json:"formats"`
}

// Summary returns the totals.
func (r *Report) Summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := map[string]int{}
	for k, v := range r.formats {
		f[k] = v
	}
	return Summary{Files: r.files, Entries: r.entries, Errors: r.errors, Warnings: r.warnings, Formats: f}
}

// WriteText prints findings to out and the summary line to summary.
func (r *Report) WriteText(out, summary io.Writer) error {
	err := r.Each(func(f Finding) error {
		_, err := fmt.Fprintln(out, f.Text())
		return err
	})
	if err != nil {
		return err
	}
	s := r.Summary()
	_, err = fmt.Fprintf(summary, "%d files, %d entries, %d errors, %d warnings\n", s.Files, s.Entries, s.Errors, s.Warnings)
	return err
}

// WriteJSON prints one NDJSON object per finding, then the summary object.
func (r *Report) WriteJSON(out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := r.Each(func(f Finding) error { return enc.Encode(f) }); err != nil {
		return err
	}
	return enc.Encode(map[string]Summary{"summary": r.Summary()})
}
