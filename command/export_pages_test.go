package command

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/html"
)

// eachPage prints what the pages print in the sessions' order, whatever
// order they finish in, and stops at the first failing page in that order:
// what the pages before it printed is printed, nothing after it.
func TestEachPage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, fail  int // fail: the page that fails (-1: none)
		workers  int
		wantOut  string
		wantRows int
	}{
		{"one worker", 5, -1, 1, "0 1 2 3 4 ", 5},
		{"four workers", 9, -1, 4, "0 1 2 3 4 5 6 7 8 ", 9},
		{"a failure, one worker", 5, 2, 1, "0 1 2 ", 0},
		{"a failure, four workers", 9, 3, 4, "0 1 2 3 ", 0},
		{"the first fails", 6, 0, 3, "0 ", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, out, _ := testEnv("")
			rows, err := eachPage(env, tc.n, tc.workers, func(e *Env, i int) (html.IndexEntry, error) {
				fmt.Fprintf(e.Stdout, "%d ", i)
				if i == tc.fail {
					return html.IndexEntry{}, errors.New("boom")
				}
				return html.IndexEntry{ID: fmt.Sprint(i)}, nil
			})
			if (err != nil) != (tc.fail >= 0) {
				t.Fatalf("err = %v", err)
			}
			if out.String() != tc.wantOut {
				t.Errorf("printed %q, want %q", out, tc.wantOut)
			}
			if len(rows) != tc.wantRows {
				t.Fatalf("%d rows, want %d", len(rows), tc.wantRows)
			}
			var ids []string
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			if tc.wantRows > 0 && strings.Join(ids, " ")+" " != tc.wantOut {
				t.Errorf("rows %v out of order", ids)
			}
		})
	}
}
