package convert

import (
	"slices"

	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// snapshots is the session with the content of each snapshot file the
// target cannot keep dropped, where it keeps an existing file's content
// only as a blob named by its SHA-256 (Caps.SnapshotsNeedContent): a file
// the source gives no blob for, or no SHA-256 to name it by, keeps its
// entry in the snapshot without its content, counted, so that its writer
// copies every blob it is given.
func (a *adapted) snapshots() {
	r := a.to.SnapshotsNeedContent
	if r == nil || !a.to.Checkpoints {
		return
	}
	var cps []session.Checkpoint // a copy, once a blob is dropped
	for i, cp := range a.meta.Checkpoints {
		copied := false
		for j, f := range cp.Files {
			if !f.Exists || f.Blob != "" && spell.IsSHA256(f.Hash) {
				continue
			}
			a.lost.Add(loss.CheckpointBlob, r.Action, r.Why, 1)
			if f.Blob == "" {
				continue
			}
			if cps == nil {
				cps = slices.Clone(a.meta.Checkpoints)
			}
			if !copied {
				cps[i].Files, copied = slices.Clone(cp.Files), true
			}
			cps[i].Files[j].Blob = ""
		}
	}
	if cps != nil {
		m := *a.meta
		m.Checkpoints = cps
		a.meta = &m
	}
}
