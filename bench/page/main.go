// Command page measures an exported page in headless Chromium (1280×1000):
// first paint, ready (the page's script has drawn it), a jump to the last
// row of the tree (until that entry's card is in view) and the first search
// hit for a word only the last prompt holds. It also counts the cards in
// the DOM after each step, which do not depend on the machine's load.
//
//	page -sesstool BIN -o DIR SESSION.jsonl
//
// The session (a tree layout file, as bench/gen writes) is copied into DIR
// with one more prompt at its end, holding the searched word, and exported
// there. Prints Markdown rows; times are wall time in the browser.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
)

// word is only in the prompt added at the end.
const word = "zyzzyvafinal"

func main() {
	bin := flag.String("sesstool", "sesstool", "the sesstool binary")
	out := flag.String("o", "", "output directory")
	chrome := flag.String("chromium", "/usr/bin/chromium", "Chromium binary")
	targets := flag.String("targets", "", "append the goals' rows (| goal | measured | met? |) to this file")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: page -sesstool BIN -o DIR SESSION.jsonl")
		os.Exit(2)
	}
	if err := run(*bin, *chrome, *out, flag.Arg(0), *targets); err != nil {
		fmt.Fprintln(os.Stderr, "page:", err)
		os.Exit(1)
	}
}

func run(bin, chrome, out, in, targets string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	sess := filepath.Join(out, "page.jsonl")
	n, err := withPrompt(in, sess)
	if err != nil {
		return err
	}
	page := filepath.Join(out, "page.html")
	if b, err := exec.Command(bin, "export", "html", "--force", "-o", page, sess).CombinedOutput(); err != nil {
		return fmt.Errorf("export: %v: %s", err, b)
	}
	st, err := os.Stat(page)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "sesstool-bench-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 1000))
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		return err
	}
	var r struct {
		Paint, Ready   float64
		Cards, Rows    int
		Jump           float64
		JumpCards      int
		Search         float64
		SearchCards    int
		SearchRendered bool
	}
	// ready: the page sets data-ready once drawn; first paint from the
	// paint timing entries
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.documentElement.dataset.ready === '1'`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		return fmt.Errorf("wait ready: %w", err)
	}
	var m map[string]float64
	if m, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(() => {
		const p = performance.getEntriesByName('first-contentful-paint')[0];
		return { paint: p ? p.startTime : -1, ready: +document.documentElement.dataset.readyAt || performance.now(),
			cards: document.querySelectorAll('#msgs article.msg').length, rows: document.querySelectorAll('#tree .row').length };
	})()`)); err != nil {
		return err
	}
	r.Paint, r.Ready, r.Cards, r.Rows = m["paint"], m["ready"], int(m["cards"]), int(m["rows"])
	// jump: scroll the tree to its end, click its last row, wait for the
	// card of that entry in view
	if m, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(async () => {
		const side = document.getElementById('side');
		side.scrollTop = side.scrollHeight;
		await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
		const rows = document.querySelectorAll('#tree .row'), row = rows[rows.length - 1], i = row.dataset.i;
		const t0 = performance.now();
		row.click();
		for (;;) {
			const a = document.querySelector('#msgs article.msg[data-i="' + i + '"]');
			if (a) { const b = a.getBoundingClientRect(); if (b.top < innerHeight && b.bottom > 0) break; }
			await new Promise((r) => requestAnimationFrame(r));
		}
		return { jump: performance.now() - t0, cards: document.querySelectorAll('#msgs article.msg').length };
	})()`, chromedp.EvalAwaitPromise)); err != nil {
		return fmt.Errorf("jump: %w", err)
	}
	r.Jump, r.JumpCards = m["jump"], int(m["cards"])
	// search: type the word, press Enter, wait for its mark in view
	if m, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(async () => {
		scrollTo(0, 0);
		const q = document.getElementById('q');
		const t0 = performance.now();
		q.value = '`+word+`';
		q.dispatchEvent(new Event('input'));
		q.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
		for (;;) {
			const m = document.querySelector('#msgs mark.hit.cur');
			if (m) { const b = m.getBoundingClientRect(); if (b.top < innerHeight && b.bottom > 0) break; }
			await new Promise((r) => requestAnimationFrame(r));
		}
		return { search: performance.now() - t0, cards: document.querySelectorAll('#msgs article.msg').length };
	})()`, chromedp.EvalAwaitPromise)); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	r.Search, r.SearchCards = m["search"], int(m["cards"])
	fmt.Printf("page of %d entries: %.1f MB\n\n", n, float64(st.Size())/1e6)
	fmt.Println("| step | time | cards in the DOM |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| first paint | %.2f s | |\n", r.Paint/1000)
	fmt.Printf("| ready | %.2f s | %d (%d tree rows) |\n", r.Ready/1000, r.Cards, r.Rows)
	fmt.Printf("| jump to the last row of the tree | %.2f s | %d |\n", r.Jump/1000, r.JumpCards)
	fmt.Printf("| first search hit, last prompt | %.2f s | %d |\n", r.Search/1000, r.SearchCards)
	if targets == "" {
		return nil
	}
	f, err := os.OpenFile(targets, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, g := range []struct {
		name string
		ms   float64
		max  float64
	}{{"first paint", r.Paint, 1}, {"ready", r.Ready, 3}, {"jump to the last row", r.Jump, 1}, {"first search hit", r.Search, 1}} {
		met := "yes"
		if g.ms/1000 > g.max {
			met = "no"
		}
		fmt.Fprintf(f, "| page of %d entries: %s at most %.0f s | %.2f s | %s |\n", n, g.name, g.max, g.ms/1000, met)
	}
	return f.Close()
}

// withPrompt copies the session in to out with a user prompt holding word
// after its last entry, and returns the number of entries.
func withPrompt(in, out string) (int, error) {
	f, err := os.Open(in)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w, err := os.Create(out)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<30)
	last, n := "", 0
	for sc.Scan() {
		var e struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.ID != "" {
			last = e.ID
			n++
		}
		w.Write(sc.Bytes())
		w.Write([]byte{'\n'})
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	line, _ := json.Marshal(map[string]any{"type": "message", "id": "ffffffff", "parentId": last, "timestamp": "2026-01-01T00:00:00.000Z",
		"message": map[string]any{"role": "user", "content": []any{map[string]string{"type": "text", "text": "one last question: " + word + "?"}}, "timestamp": 1767225600000}})
	w.Write(append(line, '\n'))
	return n, w.Close()
}
