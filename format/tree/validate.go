package tree

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Validate checks the file at path.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	r, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return f.ValidateReader(path, r, rep, opt)
}

// ValidateReader checks one tree JSONL file read from r: syntax and schema
// per line (in parallel, by the validate engine) and then, in file order, the
// rules a schema cannot say.
func (Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	br := bufio.NewReaderSize(r, headBytes)
	h := peekHeader(br)
	if head, _ := br.Peek(headBytes); len(head) == headBytes && headerOpen(head) {
		// A header longer than the peek: its version may come after the
		// cut, so it is read whole first and put back in front.
		held, err := format.ReadHead(br, headerOpen)
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		h, _ = headerLine(held)
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(held), br), headBytes)
	}
	version := headerVersion(h)
	if gjson.GetBytes(h, "type").String() != "session" && gjson.GetBytes(h, "id").Exists() {
		version = 3 // no header: judge by the first entry, so ids are not all flagged
	}
	sv := version
	if sv < 1 || sv > 3 {
		sv = 3
	}
	schemas, err := compileSchemas(sv)
	if err != nil {
		return err
	}
	ru := &rules{path: name, rep: rep, schemas: schemas, version: version, known: knownTypes(sv),
		seed: maphash.MakeSeed()}
	eng := validate.JSONL{Path: name, Rules: ru, Report: rep, Workers: opt.Workers, Tee: opt.Tee}
	_, err = eng.Run(br)
	rep.Counted(Name, 1, ru.entries)
	return err
}
