package html

import (
	"hash/crc32"
	"testing"
)

func TestCRCCombine(t *testing.T) {
	data := []byte("the parser file function return error value test build module package import string")
	for cut := 0; cut <= len(data); cut += 7 {
		a, b := data[:cut], data[cut:]
		if got, want := crcCombine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b))), crc32.ChecksumIEEE(data); got != want {
			t.Errorf("cut %d: %08x, want %08x", cut, got, want)
		}
	}
}
