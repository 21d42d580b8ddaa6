package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/sesstool/sesstool/mapping"
)

var uuidRE = regexp.MustCompile(`"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"`)

// genClaude writes a Claude Code session of about size bytes by repeating
// the sample's lines, each copy with fresh uuids derived from the copy's
// number and the sample's: every copy continues from the last line of the
// one before, so the file is one long conversation.
func genClaude(sample, out string, size int64) error {
	b, err := os.ReadFile(sample)
	if err != nil {
		return err
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	sid := []byte(`"sessionId":"` + mapping.UUID("bench-claude") + `"`)
	sidRE := regexp.MustCompile(`"sessionId":"[^"]*"`)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	last := []byte("null")
	for k := 0; written < size; k++ {
		var tail []byte
		for _, l := range lines {
			l = uuidRE.ReplaceAllFunc(l, func(u []byte) []byte {
				return []byte(`"` + mapping.UUID(fmt.Sprintf("%d:%s", k, u)) + `"`)
			})
			l = sidRE.ReplaceAll(l, sid)
			l = bytes.Replace(l, []byte(`"parentUuid":null`), []byte(`"parentUuid":`+string(last)), 1)
			if u := uuidOf(l); u != nil {
				tail = u
			}
			n, err := w.Write(append(l, '\n'))
			if err != nil {
				f.Close()
				return err
			}
			written += int64(n)
		}
		if tail != nil {
			last = tail
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var ownUUID = regexp.MustCompile(`"uuid":("[^"]*")`)

func uuidOf(l []byte) []byte {
	m := ownUUID.FindSubmatch(l)
	if m == nil {
		return nil
	}
	return m[1]
}
