package benchdata

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"regexp"

	"github.com/sesstool/sesstool/format/spell"
)

var (
	uuidRE    = regexp.MustCompile(`"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"`)
	sidRE     = regexp.MustCompile(`"sessionId":"[^"]*"`)
	ownUUIDRE = regexp.MustCompile(`"uuid":("[^"]*")`)
	// the API's ids: tool calls, messages and requests
	apiIDRE = regexp.MustCompile(`"(toolu|msg|req)_[A-Za-z0-9_]+"`)
)

// apiID is a fresh id of the same kind and length as the API's id u
// (quoted), derived from the copy's number k: each copy's tool calls are
// its own, as a real long session's are.
func apiID(k int, u []byte) []byte {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	cut := bytes.IndexByte(u, '_') + 1
	h := sha256.Sum256(fmt.Appendf(nil, "%d:%s", k, u))
	out := append([]byte(nil), u[:cut]...)
	for i := range len(u) - 1 - cut {
		out = append(out, digits[int(h[i%len(h)]+byte(i/len(h)))%len(digits)])
	}
	return append(out, '"')
}

// Claude writes a Claude Code session of about size bytes by repeating
// sample's lines, each copy with fresh uuids and API ids (tool calls,
// messages, requests) derived from the copy's number and the sample's: every copy continues from the last line of the
// one before, so the file is one long conversation.
func Claude(w io.Writer, sample []byte, size int64) error {
	lines := bytes.Split(bytes.TrimRight(sample, "\n"), []byte("\n"))
	sid := []byte(`"sessionId":"` + spell.UUID("bench-claude") + `"`)
	bw := bufio.NewWriterSize(w, 1<<20)
	var written int64
	last := []byte("null")
	for k := 0; written < size; k++ {
		var tail []byte
		for _, l := range lines {
			l = uuidRE.ReplaceAllFunc(l, func(u []byte) []byte {
				return []byte(`"` + spell.UUID(fmt.Sprintf("%d:%s", k, u)) + `"`)
			})
			l = apiIDRE.ReplaceAllFunc(l, func(u []byte) []byte { return apiID(k, u) })
			l = sidRE.ReplaceAll(l, sid)
			l = bytes.Replace(l, []byte(`"parentUuid":null`), []byte(`"parentUuid":`+string(last)), 1)
			if m := ownUUIDRE.FindSubmatch(l); m != nil {
				tail = m[1]
			}
			n, err := bw.Write(append(l, '\n'))
			if err != nil {
				return err
			}
			written += int64(n)
		}
		if tail != nil {
			last = tail
		}
	}
	return bw.Flush()
}
