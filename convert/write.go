package convert

import (
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// For is the session layout f's writer is given: r adapted to what f
// declares it holds (Adapt), as convert's stage does it. It is the one way
// into Adapt, for convert and for every test or fuzzer that writes another
// layout's session, so that a writer is always handed an adapted session
// and never adapts, or counts a loss, itself.
//   - Written outside the layout's home (opt.Home unset), a single file
//     holds no sub-agent run the layout keeps only in its home (InFile).
//   - With the layout's switch for it given (Limit.CutWith), a message
//     longer than the layout's program reads (Caps.MessageLimit) is cut
//     to fit (CutLong).
//   - A link to a parent session not converted in the same run
//     (opt.Batch) is dropped where the layout keeps none such
//     (ParentInBatch), of its own sessions too.
//   - A writer that holds the whole session anyway (Traits.HoldsSession) gets it
//     read once; every other gets opt.Reopen, so a linear target's
//     adaptation reads the session twice and its memory stays flat.
//
// A layout that declares nothing (the model dump) holds every slot of the
// model: it gets r as it was read, with what the source keeps outside the
// model counted (unmodelled.go).
func For(f format.Format, r session.Reader, opt format.WriteOptions, lost *loss.Counter) (session.Reader, error) {
	caps, ok := format.CapsOf(f)
	if !ok {
		return countUnmodelled(r, lost), nil
	}
	if !opt.Home {
		caps = caps.InFile()
	}
	caps.CutLong = caps.MessageLimit != nil && opt.Options.Bool(caps.MessageLimit.CutWith)
	reopen := opt.Reopen
	if format.TraitsOf(f).HoldsSession {
		reopen = nil
	}
	r = parentInBatch(r, caps, opt.Batch, lost)
	return Adapt(r, reopen, caps, caps.Called(f.Name()), lost)
}

// Write adapts r for f (For), then writes it to out with f's writer.
func Write(f format.Format, r session.Reader, out string, opt format.WriteOptions, lost *loss.Counter) ([]string, error) {
	w, ok := f.(format.Writer)
	if !ok {
		return nil, fmt.Errorf("%s: sesstool does not write this layout", f.Name())
	}
	a, err := For(f, r, opt, lost)
	if err != nil {
		return nil, err
	}
	return w.Write(a, out, opt)
}

// WriteTo adapts r for f (For), then writes it to w with f's stream writer.
func WriteTo(f format.Format, w io.Writer, r session.Reader, opt format.WriteOptions, lost *loss.Counter) error {
	s, ok := f.(format.Stream)
	if !ok {
		return fmt.Errorf("%s: not a single-file layout: it writes no stream", f.Name())
	}
	a, err := For(f, r, opt, lost)
	if err != nil {
		return err
	}
	return s.WriteTo(w, a, opt)
}
