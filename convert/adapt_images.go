package convert

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// images fits the image and file blocks of a message to the target's image
// block (Caps.FilesImagesOnly, ImagesInline, ImagesLinked, ImageMIME,
// ImageFileName): a file that is no image is dropped, a block known only
// by its URL (or by nothing, where the block holds a URL) is dropped
// rather than written as an image with no data, a
// missing MIME type is read from the data (and a block whose data is no
// image dropped), a file name dropped; each counted as the target declares.
func (a *adapted) images(e *session.Entry) *session.Entry {
	if a.to.ImagesInline == nil && a.to.ImageMIME == nil && a.to.ImageFileName == nil && a.to.FilesImagesOnly == nil {
		return e
	}
	c, _ := editBlocks(e, func(b session.Block) bool { return isImage(b) && a.imageChange(b) }, a.image)
	return c
}

func isImage(b session.Block) bool {
	return b.Type == session.BlockImage || b.Type == session.BlockFile
}

// imageChange reports whether a rule changes b.
func (a *adapted) imageChange(b session.Block) bool {
	return a.to.FilesImagesOnly != nil && notImage(b) ||
		a.to.ImagesInline != nil && b.Data == "" && (!a.to.ImagesLinked || b.URL == "") ||
		a.to.ImageMIME != nil && b.MimeType == "" ||
		a.to.ImageFileName != nil && b.Filename != ""
}

// image is b as the target's image block holds it, counted; false when it
// is dropped.
func (a *adapted) image(b session.Block) (session.Block, bool) {
	if r := a.to.FilesImagesOnly; r != nil && notImage(b) {
		a.lost.Add(loss.Block(b.Type), r.Action, r.Why, 1)
		return b, false
	}
	if r := a.to.ImagesInline; r != nil && b.Data == "" && (!a.to.ImagesLinked || b.URL == "") {
		a.lost.Add(loss.WithoutData(b.Type), r.Action, r.Why, 1)
		return b, false
	}
	if r := a.to.ImageMIME; r != nil && b.MimeType == "" {
		if b.MimeType = sniffImage(b.Data); b.MimeType == "" {
			a.lost.Add(loss.Block(b.Type), r.Action, r.Why, 1)
			return b, false
		}
	}
	if r := a.to.ImageFileName; r != nil && b.Filename != "" {
		a.lost.Add(loss.FileName, r.Action, r.Why, 1)
		b.Filename = ""
	}
	return b, true
}

// notImage reports whether b is a file whose MIME type names something
// other than an image (Caps.FilesImagesOnly).
func notImage(b session.Block) bool {
	return b.Type == session.BlockFile && b.MimeType != "" && !strings.HasPrefix(b.MimeType, "image/")
}

// sniffImage is the MIME type of base64 image data, as browsers sniff it,
// or "" when the data is not an image.
func sniffImage(data string) string {
	head, _ := base64.StdEncoding.DecodeString(data[:min(len(data), 684)&^3])
	if t := http.DetectContentType(head); strings.HasPrefix(t, "image/") {
		return t
	}
	return ""
}
