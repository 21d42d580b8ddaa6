package migrate

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
)

// testDoubleSyntaxOnlyValidator stands in for the tree layout's validator in
// this package's tests (the layout wraps migrate.Tree with its real one). It
// checks only that every non-blank line is JSON, reporting json-syntax
// findings the way validate.JSONL does, so refusal and --skip-invalid can be
// tested here.
func testDoubleSyntaxOnlyValidator(path string, rep *report.Report) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	lr := jsonl.NewReader(fh)
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			continue
		}
		if col, msg, bad := jsonx.SyntaxError(l.Bytes); bad {
			rep.Add(report.Finding{Path: path, Line: l.N, Column: col, Severity: report.Error, Rule: "json-syntax", Message: msg})
		}
	}
}

var testTree = Tree{Validate: testDoubleSyntaxOnlyValidator}
