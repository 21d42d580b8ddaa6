package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"

	"github.com/sesstool/sesstool/mapping"
)

var (
	uuidRE    = regexp.MustCompile(`"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"`)
	sidRE     = regexp.MustCompile(`"sessionId":"[^"]*"`)
	ownUUIDRE = regexp.MustCompile(`"uuid":("[^"]*")`)
)

// Claude writes a Claude Code session of about size bytes by repeating
// sample's lines, each copy with fresh uuids derived from the copy's
// number and the sample's: every copy continues from the last line of the
// one before, so the file is one long conversation.
func Claude(w io.Writer, sample []byte, size int64) error {
	lines := bytes.Split(bytes.TrimRight(sample, "\n"), []byte("\n"))
	sid := []byte(`"sessionId":"` + mapping.UUID("bench-claude") + `"`)
	bw := bufio.NewWriterSize(w, 1<<20)
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
