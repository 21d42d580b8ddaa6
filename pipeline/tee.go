package pipeline

import (
	"fmt"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
)

// teeBatches is how many batches of lines (256 KiB each) the validation
// may read ahead of the reader sharing its reading.
const teeBatches = 4

// Tee has the validation that Check runs hand the lines of j's file to a
// reader of it (format.Teed), so that the file is read, split and copied
// once for both. It returns nil when j's layout cannot, or when Check does
// not validate j's file. Call it before Check. The caller opens j with
// OpenTeed and the feed, and stops the feed before it waits for Check (the
// validation waits while the feed is full).
func (in *Input) Tee(j Job) *jsonl.Feed {
	if _, ok := j.Format.(format.Teed); !ok || in.tee != nil {
		return nil
	}
	for _, u := range in.deferred {
		if u.Path == j.Ref.Path && u.Format.Name() == j.Format.Name() {
			in.tee, in.teePath = jsonl.NewFeed(teeBatches), u.Path
			return in.tee
		}
	}
	return nil
}

// teeFor is the feed the validation of u fills, or nil.
func (in *Input) teeFor(u Unit) *jsonl.Feed {
	if in.tee == nil || u.Path != in.teePath {
		return nil
	}
	return in.tee
}

// endTee frees the feed's reader whatever the validation did: a feed its
// validator ended is not changed.
func (in *Input) endTee() {
	if in.tee != nil {
		in.tee.End(fmt.Errorf("%s: its validation stopped before the end", in.Show(in.teePath)))
	}
}
