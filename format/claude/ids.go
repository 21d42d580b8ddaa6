package claude

import (
	"encoding/hex"

	"github.com/sesstool/sesstool/internal/idset"
)

// ids maps line uuids to their line numbers in little memory: a UUID is
// packed into 16 bytes, kept in a dense table (18 bytes and a little slack
// a uuid), so a file of millions of lines keeps validation flat; another id of up to 31 bytes (a tool_use id, toolu_ and 24
// characters) is kept in 32, and any longer one in a map by string. The
// fixed-size keys hold no pointers, so the collector does not walk them.
type ids struct {
	packed idset.UUIDs
	short  map[shortID]int32
	other  map[string]int32
}

// shortID is an id of up to 31 bytes, its length in the last byte.
type shortID [32]byte

func packShort(id string) (shortID, bool) {
	var k shortID
	if len(id) >= len(k) {
		return k, false
	}
	copy(k[:], id)
	k[len(k)-1] = byte(len(id))
	return k, true
}

func pack(id string) ([16]byte, bool) {
	var k [16]byte
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return k, false
	}
	var h [32]byte
	copy(h[0:8], id[0:8])
	copy(h[8:12], id[9:13])
	copy(h[12:16], id[14:18])
	copy(h[16:20], id[19:23])
	copy(h[20:32], id[24:36])
	for i, c := range h {
		if c >= 'A' && c <= 'F' {
			return k, false // upper case would not round-trip; keep it as a string
		}
		_ = i
	}
	if _, err := hex.Decode(k[:], h[:]); err != nil {
		return k, false
	}
	return k, true
}

func (x *ids) get(id string) (int32, bool) {
	if k, ok := pack(id); ok {
		return x.packed.Get(k)
	}
	if k, ok := packShort(id); ok {
		n, found := x.short[k]
		return n, found
	}
	n, found := x.other[id]
	return n, found
}

// add puts id with line n unless id is there already; it returns the line
// id has and whether it had one. n must not be negative.
func (x *ids) add(id string, n int32) (int32, bool) {
	if k, ok := pack(id); ok {
		return x.packed.Add(k, n)
	}
	if k, ok := packShort(id); ok {
		if prev, dup := x.short[k]; dup {
			return prev, true
		}
		if x.short == nil {
			x.short = map[shortID]int32{}
		}
		x.short[k] = n
		return 0, false
	}
	if prev, dup := x.other[id]; dup {
		return prev, true
	}
	if x.other == nil {
		x.other = map[string]int32{}
	}
	x.other[string([]byte(id))] = n
	return 0, false
}
