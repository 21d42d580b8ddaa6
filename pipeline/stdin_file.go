package pipeline

import (
	"bufio"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

// detectFileOnStdin finds the directory layout one of whose session files
// standard input is (format.FileOnStdin: a Claude Code transcript), once no
// single-file layout claims it: a transcript piped in reads without --from.
func detectFileOnStdin(head []byte) format.Format {
	for _, f := range registry.All {
		if fs, ok := f.(format.FileOnStdin); ok && fs.DetectOnStdin(head) {
			return f
		}
	}
	return nil
}

// ReadStdin is DetectStdin for the commands that also read a directory
// layout's one session file from standard input (validate, info, detect):
// a single-file layout is read as a stream (s, br); a session file of a
// directory layout (format.FileOnStdin) is spooled to a file of its own
// (sp), which the caller reads as that layout's file and removes.
func ReadStdin(r io.Reader, forced format.Format) (s format.Stream, br *bufio.Reader, sp *Spooled, err error) {
	f, br, err := detectStdin(r, forced)
	if err != nil {
		return nil, nil, nil, err
	}
	if s, ok := f.(format.Stream); ok {
		return s, br, nil, nil
	}
	sp, err = SpoolUnchecked(br, f) // validated from the copy, as a file is
	return nil, nil, sp, err
}
