package format

import (
	"bytes"
	"io"
	"os"

	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/report"
)

// Head returns up to n bytes from the start of a regular file, for cheap
// content detection. It returns nil for anything else.
func Head(path string, n int) []byte {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := regfile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, n)
	k, _ := io.ReadFull(f, buf)
	return buf[:k]
}

// BOM is the UTF-8 byte order mark. Neither JSON nor JSON Lines allows one,
// but detection looks past it, so that a file starting with one is claimed
// by its layout and validate names the problem (utf8-bom) instead of calling
// the file unknown.
var BOM = []byte("\xef\xbb\xbf")

// TrimBOM returns b without a leading UTF-8 byte order mark.
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, BOM) }

// RuleBOM is the rule of a byte order mark's finding, for every layout.
const RuleBOM = "utf8-bom"

// BOMFinding is the error for a JSON document (not JSON Lines, whose engine
// reports it) at path that starts with a byte order mark.
func BOMFinding(path string) report.Finding {
	return report.Finding{Path: path, Line: 1, Column: 1, Severity: report.Error, Rule: RuleBOM,
		Message: "the file starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow"}
}

// NameDetector is implemented by a single-file layout whose files have a
// name no other layout's have (pi's <time>_<id>.jsonl): a file whose
// content no layout recognises (its header is broken or missing) is still
// claimed by its name, so validate says what is wrong with it instead of
// calling it unknown. Content always wins over a name.
type NameDetector interface {
	DetectName(path string) bool
}

// ByName reports whether f claims path by its name (NameDetector).
func ByName(f Format, path string) bool {
	n, ok := f.(NameDetector)
	return ok && n.DetectName(path)
}

// HeadMax is the most HeadGrow reads: the longest header line detection
// looks at whole (the longest line a reader of the model holds, jsonl.MaxHeld).
const HeadMax = 64 << 20

// HeadGrow is Head for a header that may be longer than n: while more says
// the head does not hold all it needs (a first line with no end yet), it
// reads on, doubling, up to HeadMax. A file whose header is short costs
// what Head costs.
func HeadGrow(path string, n int, more func(head []byte) bool) []byte {
	head := Head(path, n)
	for len(head) == n && n < HeadMax && more(head) {
		n = min(2*n, HeadMax)
		head = Head(path, n)
	}
	return head
}

// LineOpen reports whether head ends inside its first non-blank line (the
// first skip lines passed over first): detection would see the line cut.
func LineOpen(head []byte, skip int) bool {
	head = TrimBOM(head)
	for {
		head = bytes.TrimLeft(head, " \t\r\n")
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			return true
		}
		if skip == 0 {
			return false
		}
		skip--
		head = head[i+1:]
	}
}

// ReadHead reads the start of r for detection: 64 KiB, then, doubling, more
// while more says the head does not hold all it needs, up to HeadMax or the
// end of r. What it read is consumed: the caller puts it back in front.
func ReadHead(r io.Reader, more func(head []byte) bool) ([]byte, error) {
	buf := make([]byte, 64<<10)
	k, err := io.ReadFull(r, buf)
	buf = buf[:k]
	for err == nil && len(buf) < HeadMax && more(buf) {
		next := make([]byte, min(len(buf), HeadMax-len(buf)))
		k, err = io.ReadFull(r, next)
		buf = append(buf, next[:k]...)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf, err
}
