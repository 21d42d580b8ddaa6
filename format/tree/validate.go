package tree

import (
	"bufio"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Validate checks the file at path.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	fh, err := regfile.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer fh.Close()
	return f.ValidateReader(path, fh, rep, opt)
}

// ValidateReader checks one tree JSONL file read from r: syntax and schema
// per line (in parallel, by the validate engine) and then, in file order, the
// rules a schema cannot say.
func (Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	br := bufio.NewReaderSize(r, headBytes)
	h := peekHeader(br)
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
	eng := validate.JSONL{Path: name, Rules: ru, Report: rep, Workers: opt.Workers}
	_, err = eng.Run(br)
	rep.Counted(Name, 1, ru.entries)
	return err
}
