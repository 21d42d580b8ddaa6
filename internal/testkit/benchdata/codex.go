package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Codex writes a Codex rollout of about size bytes: sample's session_meta
// line, then its other lines over and over (a real rollout, with its
// encrypted reasoning and tool outputs), so every run measures the same
// bytes.
func Codex(w io.Writer, sample []byte, size int64) error {
	lines := bytes.Split(bytes.TrimRight(bytes.ReplaceAll(sample, []byte("\r\n"), []byte("\n")), "\n"), []byte("\n"))
	if len(lines) < 2 {
		return fmt.Errorf("the Codex sample has no lines after its session_meta")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	written := int64(0)
	put := func(l []byte) {
		bw.Write(l)
		bw.WriteByte('\n')
		written += int64(len(l)) + 1
	}
	put(lines[0])
	for written < size {
		for _, l := range lines[1:] {
			if len(bytes.TrimSpace(l)) > 0 {
				put(l)
			}
		}
	}
	return bw.Flush()
}
