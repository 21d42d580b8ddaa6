package opencode

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/report"
)

const streamInfo = `{
  "info": {
    "id": "ses_e03a737e8ffeFPl5pgZjDAnlwG",
    "version": "1.1.34",
    "projectID": "global",
    "directory": "/",
    "title": "t",
    "time": {
      "created": 1795235039255,
      "updated": 1795235055073
    }
  },
  "messages": [`

// streamMsg is the i-th message of a generated export document: a user
// message with one text part.
func streamMsg(i int) string {
	sep := ","
	if i == 0 {
		sep = ""
	}
	return fmt.Sprintf(`%s
    {
      "info": {
        "id": "msg_%012x%014d",
        "sessionID": "ses_e03a737e8ffeFPl5pgZjDAnlwG",
        "role": "user",
        "time": {
          "created": 1795235039255
        }
      },
      "parts": [
        {
          "id": "prt_%012x%014d",
          "sessionID": "ses_e03a737e8ffeFPl5pgZjDAnlwG",
          "messageID": "msg_%012x%014d",
          "type": "text",
          "text": "m%d"
        }
      ]
    }`, sep, 0x1fc58c82b00+i, i, 0x1fc58c82b00+i, i, 0x1fc58c82b00+i, i, i)
}

// The reader hands out a message's entry while the rest of the document
// has not been written: it does not hold the document.
func TestExportReaderStreams(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		io.WriteString(pw, streamInfo)
		// the batches the reader maps ahead of its caller, and some
		for i := 0; i < 2*runtime.GOMAXPROCS(0)*batchMsgs+100; i++ {
			io.WriteString(pw, streamMsg(i))
		}
		// the document stays open until the test ends
	}()
	got := make(chan error, 1)
	go func() {
		r, err := Export{}.OpenReader("pipe", pr)
		if err != nil {
			got <- err
			return
		}
		if r.Meta().ID != "ses_e03a737e8ffeFPl5pgZjDAnlwG" {
			got <- fmt.Errorf("meta id %q", r.Meta().ID)
			return
		}
		e, err := r.Next()
		if err == nil && (e.Message == nil || len(e.Message.Content) != 1 || e.Message.Content[0].Text != "m0") {
			err = fmt.Errorf("first entry %+v, want the user message m0", e)
		}
		got <- err
	}()
	if err := hangwatch.Recv(t, got, "no entry before the end of the document: the reader waits for all of it"); err != nil {
		t.Fatal(err)
	}
}

// genDoc is an export document of n messages, made as it is read; mid
// runs when half of them are.
type genDoc struct {
	n, i int
	buf  []byte
	mid  func()
}

func (g *genDoc) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		switch {
		case g.i == 0:
			g.buf = []byte(streamInfo)
		case g.i <= g.n:
			g.buf = []byte(streamMsg(g.i - 1))
		case g.i == g.n+1:
			g.buf = []byte("\n  ]\n}\n")
		default:
			return 0, io.EOF
		}
		if g.i == g.n/2 && g.mid != nil {
			g.mid()
		}
		g.i++
	}
	k := copy(p, g.buf)
	g.buf = g.buf[k:]
	return k, nil
}

// Validating an export document keeps a few words per message and part,
// not the document: halfway through it, the live heap has grown by less
// than 400 bytes a message read (about 350: ids and lines; holding the
// document, the bytes read alone were 490 a message).
func TestExportValidateMemory(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 5000
	}
	size := int64(len(streamInfo))
	for i := 0; i < n; i++ {
		size += int64(len(streamMsg(i)))
	}
	// the schemas compile once, on first use: not part of what is measured
	if err := validateExportFrom("warm.json", &genDoc{n: 2}, &report.Report{}); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, mid runtime.MemStats
	runtime.ReadMemStats(&before)
	rep := &report.Report{}
	g := &genDoc{n: n, mid: func() { runtime.GC(); runtime.ReadMemStats(&mid) }}
	if err := validateExportFrom("gen.json", g, rep); err != nil {
		t.Fatal(err)
	}
	if fs := rep.Findings(); len(fs) != 0 {
		t.Fatalf("findings on a valid document: %v", fs[:min(3, len(fs))])
	}
	if s := rep.Summary(); s.Entries != n {
		t.Fatalf("%d entries, want %d", s.Entries, n)
	}
	halfway := int64(mid.HeapAlloc) - int64(before.HeapAlloc)
	if bound := int64(400 * n / 2); halfway > bound {
		t.Errorf("halfway through a document of %d bytes (%d messages), the heap had grown by %d bytes: more than 400 bytes a message read", size, n, halfway)
	}
	t.Logf("document %d bytes; heap grown by %d bytes halfway (%d a message)", size, halfway, halfway/int64(n/2))
}
