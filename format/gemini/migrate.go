package gemini

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// Versions lists the generations, oldest first: 1 the legacy document, 2
// JSON Lines.
func (Format) Versions() []string { return []string{V1, V2} }

// Version reports the generation of the session file at path.
func (Format) Version(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	c, err := load(path, b)
	if err != nil {
		return "", err
	}
	if c.legacy {
		return V1, nil
	}
	return V2, nil
}

// Migrate writes a legacy session-*.json as the session-*.jsonl Gemini CLI
// makes of it when it resumes it (chatRecordingService.initialize in
// 0.61.0): beside it, with the same name and an "l" added, or at opt.Out.
// The .json is left as it was, as the agent leaves it. A JSON Lines file
// is already at version 2; there is no way back to 1.
func (f Format) Migrate(path, to string, opt format.MigrateOptions) (format.MigrateResult, error) {
	res := format.MigrateResult{Path: path, To: to}
	if to == "" {
		res.To = V2
	}
	if res.To != V1 && res.To != V2 {
		return res, fmt.Errorf("%w: Gemini CLI has no version %q (known: 1, 2)", format.ErrRefusedStep, res.To)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return res, err
	}
	c, err := load(path, b)
	if err != nil {
		return res, &format.InvalidError{Path: path, Findings: []report.Finding{{Path: path, Severity: report.Error, Rule: "missing-metadata", Message: err.Error()}}}
	}
	res.From = V2
	if c.legacy {
		res.From = V1
	}
	if res.From == res.To {
		return res, nil
	}
	if res.To == V1 {
		return res, fmt.Errorf("%w: version 2 to 1 (Gemini CLI only moves sessions forward; a JSON Lines file's rewinds and message history have no place in a document)", format.ErrRefusedStep)
	}
	rep := &report.Report{}
	validateDoc(path, format.TrimBOM(b), rep)
	if rep.Errors() > 0 {
		var errs []report.Finding
		for _, fd := range rep.Findings() {
			if fd.Severity == report.Error {
				errs = append(errs, fd)
			}
		}
		return res, &format.InvalidError{Path: path, Findings: errs}
	}
	var out []byte
	for _, l := range migrated(c) {
		out = append(out, l.raw...)
		out = append(out, '\n')
	}
	res.Changed = true
	res.Changes = []string{
		"the document becomes JSON Lines: a metadata line, then each message on a line of its own",
		"the .json is kept; the .jsonl is written beside it",
	}
	if opt.DryRun {
		return res, nil
	}
	if opt.Out == "-" {
		if _, err := opt.Stdout.Write(out); err != nil {
			return res, fmt.Errorf("write: %w", err)
		}
		return res, nil
	}
	dst := path + "l"
	if opt.Out != "" {
		dst = opt.Out
		if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
			dst = filepath.Join(dst, filepath.Base(path)+"l")
		}
	}
	if err := atomicfile.WriteFile(dst, out, 0o644, false); err != nil {
		if errors.Is(err, atomicfile.ErrExists) {
			return res, fmt.Errorf("%s: already exists (the agent resumed the session before?); not overwriting it", dst)
		}
		return res, err
	}
	res.Written = dst
	return res, nil
}

// migrated is a legacy session as the lines Gemini CLI 0.61.0 writes when
// it resumes it: the metadata (sessionId, projectHash, startTime,
// lastUpdated, kind, directories, summary, those the document has), every
// element of its messages as it stands, the memory scratchpad as a $set,
// then the {"$set":{"sessionId":...}} the resume itself appends. Each is
// JSON.stringify's spelling of what JSON.parse read.
func migrated(c *conv) []rec {
	doc := gjson.ParseBytes(c.metaRaw)
	var out []rec
	add := func(b []byte) { out = append(out, rec{n: len(out) + 1, raw: b}) }
	meta := []byte{'{'}
	for _, k := range []string{"sessionId", "projectHash", "startTime", "lastUpdated", "kind", "directories", "summary"} {
		v := doc.Get(gjson.Escape(k))
		if !v.Exists() {
			continue
		}
		if len(meta) > 1 {
			meta = append(meta, ',')
		}
		meta = append(meta, '"')
		meta = append(meta, k...)
		meta = append(meta, '"', ':')
		meta = stringify(meta, v)
	}
	add(append(meta, '}'))
	doc.Get("messages").ForEach(func(_, m gjson.Result) bool {
		add(stringify(nil, m))
		return true
	})
	if sp := doc.Get("memoryScratchpad"); sp.Exists() && sp.Type != gjson.Null && !(sp.Type == gjson.False) && !(sp.Type == gjson.Number && sp.Num == 0) && !(sp.Type == gjson.String && sp.Str == "") {
		add(append(stringify([]byte(`{"$set":{"memoryScratchpad":`), sp), '}', '}'))
	}
	add(append(stringify([]byte(`{"$set":{"sessionId":`), doc.Get("sessionId")), '}', '}'))
	return out
}
