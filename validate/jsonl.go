// Package validate is the streaming engine behind `sesstool validate`: it
// reads a line-oriented file with a pool of workers for the per-line work
// (syntax, UTF-8, schema) and hands each line, in order, to a format's
// sequential rules (ids, links, references).
package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/fastschema"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/tidwall/gjson"
)

// Line is one parsed line handed to a format's rules.
type Line struct {
	N     int
	Bytes []byte
	Value gjson.Result // parsed with gjson; only set when the line is valid JSON
	Valid bool         // JSON syntax and UTF-8 are fine
	Last  bool         // the last line of the file
	// Size is the line's length in bytes. A line longer than LongLine is
	// not held: Bytes is then its skeleton, the line with each string
	// longer than 4 KiB cut to a short prefix, Cut the JSON pointers of
	// those strings (a rule that reads a string's content checks IsCut),
	// and a line with no skeleton is Valid false with a warning that says
	// so, Bytes its first 4 KiB.
	Size int
	Cut  []string
}

// IsCut reports whether the string at ptr is only a prefix of the line's.
func (l Line) IsCut(ptr string) bool {
	for _, p := range l.Cut {
		if p == ptr {
			return true
		}
	}
	return false
}

// Rules is what a format plugs into the engine.
type Rules interface {
	// Schema picks the schema for a line (by its type), or nil to skip schema
	// checks for it. It is called from many goroutines and must not keep state.
	Schema(v gjson.Result) *jsonschema.Schema
	// Check applies the sequential rules to each line, in file order, including
	// lines that were not valid JSON (Valid false), so rules can count them.
	Check(l Line)
	// Finish runs after the last line (dangling references, cycles, ...).
	Finish()
}

// JSONL validates one line-oriented JSON file.
type JSONL struct {
	Path    string
	Rules   Rules
	Report  *report.Report
	Workers int // 0 means GOMAXPROCS
	// LongLine is the length above which a line is scanned as a stream
	// and checked on its skeleton instead of held whole; 0 means
	// jsonl.MaxHeld, the longest line a session reader holds.
	LongLine int
	// Tee, when set, is sent every non-blank line read, the copies the
	// workers check, for a session reader of the same file (export html
	// reads it once for both). It is ended at the first line longer than
	// jsonl.MaxHeld, as a held reader stops there, or at the end of the
	// input.
	Tee *jsonl.Feed
}

type item struct {
	n         int
	b         []byte
	terminate bool
	valid     bool
	v         gjson.Result
	findings  []report.Finding
	long      *skeleton // a long line's scan, its skeleton in b once parsed
	skipped   bool      // well-formed, but too large even as a skeleton
	cut       []string  // pointers of the strings the skeleton cut
}

// A batch is at most batchLines lines or batchBytes bytes. About six
// batches are in flight (queued, on the workers, being read and being
// checked), and copies of their lines are live heap, which the memory
// limit lets grow to twice itself once a validator's ids make it large
// (main_runtime.go): at up to 1 MiB a batch, 3 MB of the 1 GB Claude Code
// validate's live heap. 256 KiB costs no CPU time that could be measured.
const (
	batchLines = 512
	batchBytes = 256 << 10
)

var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// Run reads r to the end. It returns the number of non-blank lines; err is an
// I/O error, never a finding.
func (j *JSONL) Run(r io.Reader) (int, error) {
	workers := j.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batches := make(chan chan []item, workers*2)
	var readErr error
	go func() {
		defer close(batches)
		readErr = j.read(r, workers, batches)
	}()
	count := 0
	var last *item
	for ch := range batches {
		for _, it := range <-ch {
			if last != nil {
				j.deliver(last, false)
			}
			it := it
			last = &it
			count++
		}
	}
	if last != nil {
		j.deliver(last, true)
	}
	j.Rules.Finish()
	return count, readErr
}

// read splits the input into batches and starts a worker per batch, bounded
// by a semaphore, so output order is the batches' order.
func (j *JSONL) read(r io.Reader, workers int, out chan<- chan []item) error {
	lr := jsonl.NewReader(r)
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	defer wg.Wait()
	tee := j.Tee
	if tee != nil {
		defer tee.End(nil) // at the end of the input, unless ended before
	}
	var batch []item
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if tee != nil && !tee.Send(teeLines(batch)) {
			tee = nil
		}
		ch := make(chan []item, 1)
		out <- ch
		sem <- struct{}{}
		wg.Add(1)
		go func(b []item) {
			defer wg.Done()
			for i := range b {
				j.parse(&b[i])
			}
			<-sem
			ch <- b
		}(batch)
		batch = nil
	}
	size := 0
	longLine := j.LongLine
	if longLine <= 0 {
		longLine = jsonl.MaxHeld
	}
	for {
		l, err := lr.NextLimit(longLine)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && l.Long {
			flush()
			size = 0
			if tee != nil {
				tee.EndTooLong(l.N)
				tee = nil
			}
			k := &skeleton{}
			l.Terminated, err = lr.Rest(k.Write)
			if !k.notBlank {
				j.Report.Warnf(j.Path, l.N, "", "blank-line", "blank line (ignored by every agent, but not JSON)")
			} else {
				batch = append(batch, item{n: l.N, terminate: l.Terminated, long: k})
			}
		}
		if err != nil {
			flush()
			if tee != nil {
				tee.End(err) // its reader names the file itself
			}
			return fmt.Errorf("read %s: %w", j.Path, err)
		}
		if l.Long {
			flush()
			continue
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			if l.Terminated || len(l.Bytes) > 0 {
				j.Report.Warnf(j.Path, l.N, "", "blank-line", "blank line (ignored by every agent, but not JSON)")
			}
			continue
		}
		batch = append(batch, item{n: l.N, b: bytes.Clone(l.Bytes), terminate: l.Terminated})
		size += len(l.Bytes)
		if len(batch) >= batchLines || size >= batchBytes {
			flush()
			size = 0
		}
	}
	flush()
	return nil
}

// teeLines are a batch's lines as a session reader reads them.
func teeLines(batch []item) []jsonl.Line {
	out := make([]jsonl.Line, len(batch))
	for i, it := range batch {
		out[i] = jsonl.Line{Bytes: it.b, N: it.n, Terminated: it.terminate}
	}
	return out
}

// decoders are pooled for the memory they reuse; a worker holds one until
// the value it made has been validated.
var decoders = sync.Pool{New: func() any { return new(jsonx.Decoder) }}

// view is b as a string without a copy; b must not change afterwards.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// parse does the per-line work that needs no other line. The fast path
// checks UTF-8 and then syntax and decoding in one pass (decode); only a
// line it refuses goes through jsonx.SyntaxError for the message.
func (j *JSONL) parse(it *item) {
	if it.long != nil && !j.parseLong(it) {
		return
	}
	if it.n == 1 && bytes.HasPrefix(it.b, utf8BOM) {
		// Say what it is: a generic syntax error at column 1 does not.
		it.findings = append(it.findings, report.Finding{Path: j.Path, Line: 1, Column: 1, Severity: report.Error, Rule: "utf8-bom",
			Message: "the file starts with a UTF-8 byte order mark (EF BB BF), which JSON Lines does not allow"})
		return
	}
	v := gjson.Parse(view(it.b)) // it.b never changes once read
	sch := j.Rules.Schema(v)     // only used once the line is known to be JSON
	var unchecked []string       // pointers of cut strings the schema judges by more than type
	if it.long != nil && sch != nil {
		unchecked = j.cutStrings(it, sch)
	}
	if accepted(sch, it.b) {
		it.valid, it.v = true, v
		return
	}
	d := decoders.Get().(*jsonx.Decoder)
	defer decoders.Put(d) // after validation: inst lives in d's memory
	inst, ok := any(nil), utf8.Valid(it.b)
	if ok {
		inst, ok = d.Decode(it.b)
	}
	if !ok {
		col, msg, bad := jsonx.SyntaxError(it.b)
		if bad {
			rule := "json-syntax"
			if msg == "invalid UTF-8" {
				rule = "invalid-utf8"
			}
			it.findings = append(it.findings, report.Finding{Path: j.Path, Line: it.n, Column: col, Severity: report.Error, Rule: rule, Message: msg})
			return
		}
		inst = nil // decode and encoding/json disagree: let the library decode
	}
	it.valid = true
	if key, off, dup := jsonx.DuplicateKey(it.b); dup {
		if it.long != nil {
			off = it.long.lineOffset(off)
		}
		it.findings = append(it.findings, DuplicateKey(j.Path, it.n, off+1, key))
	}
	it.v = v
	if sch == nil {
		return
	}
	// inst is nil when the library must decode the line itself.
	doc := schema.Doc{Path: j.Path, Line: it.n}
	if len(unchecked) > 0 {
		doc.Skip = func(is schema.Issue) bool { return under(is.Pointer, unchecked) }
	}
	it.findings = append(it.findings, doc.Full(sch, it.b, inst)...)
}

// DuplicateKey is the finding for an object that has key twice, the
// second at line and (byte) column: readers disagree about its value.
func DuplicateKey(path string, line, column int, key string) report.Finding {
	return report.Finding{Path: path, Line: line, Column: column, Severity: report.Error, Rule: "duplicate-key",
		Message: fmt.Sprintf("key %q appears twice in one object (JavaScript and Python keep the last value, sesstool the first)", key)}
}

// DuplicateKeyAt checks b, valid JSON that starts at line:col of a file,
// for a key twice in one object (jsonx.DuplicateKey): the finding is at
// the second use, its column counted in characters, as a document's syntax
// errors are.
func DuplicateKeyAt(path string, b []byte, line, col int) (report.Finding, bool) {
	key, off, dup := jsonx.DuplicateKey(b)
	if !dup {
		return report.Finding{}, false
	}
	if nl := bytes.LastIndexByte(b[:off], '\n'); nl >= 0 {
		line, col = line+bytes.Count(b[:off], []byte{'\n'}), utf8.RuneCount(b[nl+1:off])+1
	} else {
		col += utf8.RuneCount(b[:off])
	}
	return DuplicateKey(path, line, col, key), true
}

func (j *JSONL) deliver(it *item, last bool) {
	if last && !it.terminate && !it.valid && !it.skipped {
		// A last line with no newline that does not parse is a torn write,
		// not a stray syntax error: say so instead.
		j.Report.Add(report.Finding{Path: j.Path, Line: it.n, Severity: report.Error, Rule: "torn-line", Message: "last line is incomplete (no newline, not valid JSON): the write that made it was cut off"})
	} else {
		for _, f := range it.findings {
			j.Report.Add(f)
		}
	}
	size := len(it.b)
	if it.long != nil {
		size = int(it.long.size)
	}
	j.Rules.Check(Line{N: it.n, Bytes: it.b, Value: it.v, Valid: it.valid, Last: last, Size: size, Cut: it.cut})
}

// accepted is the fast path: true when the raw bytes are certainly valid
// JSON, UTF-8, free of repeated keys and valid against sch (nil: no schema),
// so none of the checks below would report anything. Most lines of a real
// file take it; the rest are decoded and checked in full, which also words
// the findings.
func accepted(sch *jsonschema.Schema, b []byte) bool {
	if sch == nil {
		return fastschema.Syntax(b)
	}
	return schema.Accepts(sch, b)
}
