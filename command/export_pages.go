package command

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/sesstool/sesstool/export/html"
)

// siteWorkers is how many pages of a site are rendered at once: one per
// CPU, at most four. A page is rendered as its session is read, mostly on
// one core, so a store of many sessions is made that many times as fast;
// each holds at most one session's skeleton and page buffers.
func siteWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }

// eachPage runs page for each of n sessions on workers goroutines and
// returns their index rows in order. Each page writes to its own buffers,
// copied to env in the sessions' order once it is done, so the output is
// the same as one by one. The first error in that order ends the run: no
// later page is started, those running are finished, and what the pages
// before it printed is printed.
func eachPage(env *Env, n, workers int, page func(*Env, int) (html.IndexEntry, error)) ([]html.IndexEntry, error) {
	out := make([]html.IndexEntry, n)
	if workers <= 1 || n <= 1 {
		for i := range n {
			var err error
			if out[i], err = page(env, i); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	type result struct {
		stdout, stderr bytes.Buffer
		err            error
		skipped        bool // not started: a page before it failed
		done           chan struct{}
	}
	res := make([]*result, n)
	for i := range res {
		res[i] = &result{done: make(chan struct{})}
	}
	var mu sync.Mutex
	failed := false
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := range n {
			mu.Lock()
			f := failed
			mu.Unlock()
			if f {
				for k := i; k < n; k++ {
					res[k].skipped = true
					close(res[k].done)
				}
				return
			}
			ch <- i
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				r := res[i]
				e := *env
				e.Stdout, e.Stderr = &r.stdout, &r.stderr
				out[i], r.err = page(&e, i)
				if r.err != nil {
					mu.Lock()
					failed = true
					mu.Unlock()
				}
				close(r.done)
			}
		}()
	}
	var first error
	for _, r := range res {
		<-r.done
		if r.skipped {
			break
		}
		env.Stdout.Write(r.stdout.Bytes())
		env.Stderr.Write(r.stderr.Bytes())
		if r.err != nil {
			first = r.err
			break
		}
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return out, nil
}
