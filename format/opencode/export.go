package opencode

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/mapping"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Export is the `opencode export` / `opencode import` document
// {info, messages:[{info, parts}]}, pretty-printed with 2 spaces.
type Export struct{}

func (Export) Name() string      { return ExportName }
func (Export) Aliases() []string { return nil }

// Ext is the export document's file extension.
func (Export) Ext() string { return ".json" }

func (Export) Detect(path string) bool {
	l, _ := classify(path)
	return l == layoutExport
}

func (Export) Sessions(path string) ([]format.Ref, error) { return sessions(path) }

func (Export) Open(ref format.Ref) (session.Reader, error) { return open(ref) }

func (Export) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	validateExport(path, b, rep)
	return nil
}

func (Export) DetectHead(head []byte) bool { return isExportHead(head) }

func (Export) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	validateExport(name, b, rep)
	return nil
}

func (Export) OpenReader(name string, r io.Reader) (session.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	d, err := decodeDoc(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return exportReader(d, nil), nil
}

// Encode returns the export document of one session, as OpenCode prints it.
func Encode(r session.Reader, opt format.WriteOptions) ([]byte, error) {
	r, err := mapping.Adapt(r, opt.Reopen, caps, "OpenCode", opt.Loss)
	if err != nil {
		return nil, err
	}
	s, err := session.ReadAll(r)
	if err != nil {
		return nil, err
	}
	d, err := toDoc(s, opt.Extra, opt.Loss)
	if err != nil {
		return nil, err
	}
	return append(pretty(encodeDoc(d)), '\n'), nil
}

func (Export) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	b, err := Encode(r, opt)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, bytes.NewReader(b))
	return err
}

func (Export) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	b, err := Encode(r, opt)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(out, b, 0o644, opt.Force); err != nil {
		return nil, err
	}
	return []string{out}, nil
}

var (
	_ format.Format = Export{}
	_ format.Writer = Export{}
	_ format.Stream = Export{}
)
