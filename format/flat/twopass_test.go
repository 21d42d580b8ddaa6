package flat_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/flat"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// With Reopen the writer reads a session twice instead of holding it; the
// output and the loss report must be the same bytes and counts as without,
// for every sample session of every other layout.
func TestTwoPassesWriteWhatOneDoes(t *testing.T) {
	units, _, err := registry.Walk(filepath.Join("..", "..", "testdata", "samples"), nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions := 0
	for _, u := range units {
		if u.Format.Name() == flat.Name {
			continue
		}
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			open := func() (session.Reader, error) { return u.Format.Open(ref) }
			name := u.Path + " " + ref.ID
			once, onceLoss, err1 := writeFlat(t, open, nil)
			twice, twiceLoss, err2 := writeFlat(t, open, open)
			if err1 != nil || err2 != nil {
				if (err1 == nil) != (err2 == nil) {
					t.Errorf("%s: one pass: %v; two passes: %v", name, err1, err2)
				}
				continue // an invalid sample
			}
			if !bytes.Equal(once, twice) {
				t.Errorf("%s: two passes wrote different bytes:\n%s", name, cmp.Diff(string(once), string(twice)))
			}
			if diff := cmp.Diff(onceLoss, twiceLoss); diff != "" {
				t.Errorf("%s: two passes counted different losses:\n%s", name, diff)
			}
			sessions++
		}
	}
	if sessions < 10 {
		t.Fatalf("only %d sample sessions found", sessions)
	}
}

func writeFlat(t *testing.T, open, reopen func() (session.Reader, error)) ([]byte, []format.LossItem, error) {
	t.Helper()
	r, err := open()
	if err != nil {
		return nil, nil, err
	}
	loss := &format.Loss{}
	var out bytes.Buffer
	err = flat.New().WriteTo(&out, r, format.WriteOptions{Loss: loss, Reopen: reopen})
	return out.Bytes(), loss.Items(), err
}
