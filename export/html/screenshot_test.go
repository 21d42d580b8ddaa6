package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/sesstool/sesstool/internal/testkit/browsertest"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/internal/testkit/short"
)

// TestScreenshots photographs the page in light and dark themes at desktop
// and phone widths; with -update the pictures replace those in docs/img,
// which docs/export.md shows.
func TestScreenshots(t *testing.T) {
	b := browsertest.New(t)
	page, _ := writePage(t, fixture.Session(), "")
	shots := []struct {
		name          string
		width, height int64
		theme         string
	}{
		{"export-desktop-light.png", 1280, 860, "light"},
		{"export-desktop-dark.png", 1280, 860, "dark"},
		{"export-phone-light.png", 400, 820, "light"},
		{"export-phone-dark.png", 400, 820, "dark"},
	}
	if !golden.Updating() {
		// the short loop draws one picture; -update replaces them all
		shots = short.Cases(t, shots, nil)
	}
	for _, tc := range shots {
		b.Do(t, chromedp.EmulateViewport(tc.width, tc.height))
		b.Open(t, page)
		b.Eval(t, `(document.documentElement.dataset.theme = '`+tc.theme+`', window.scrollTo(0, 0), true)`, new(bool))
		png, err := chromedp.Run(b.Ctx(), chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10_000 {
			t.Fatalf("%s: not a PNG of a drawn page (%d bytes)", tc.name, len(png))
		}
		if err := os.WriteFile(filepath.Join(browsertest.Artifacts(t), tc.name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		doc := filepath.Join("..", "..", "docs", "img", tc.name)
		if golden.Updating() {
			if err := os.MkdirAll(filepath.Dir(doc), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(doc, png, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if _, err := os.Stat(doc); err != nil {
			t.Errorf("docs/export.md shows %s, which is missing: run go test ./export/html -run TestScreenshots -update", doc)
		}
	}
	b.Do(t, chromedp.EmulateViewport(1280, 900))
	b.Clean(t, page)
}
