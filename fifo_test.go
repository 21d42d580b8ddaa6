//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/short"
)

// fifoCase is a sample with one of its files replaced by a named pipe.
type fifoCase struct {
	name, sample, fifo string
	skip               []string
}

// TestFIFOInsideSessions (issue 18, point 6): a named pipe where a session
// or store keeps a file is refused without being opened, and the run says
// so naming the pipe. Before, open(2) of a pipe with no writer blocked
// validate, info and export forever; here each run is killed after 20 s,
// which fails the test.
func TestFIFOInsideSessions(t *testing.T) {
	goat := "goat/generated/projects/srv-gen-goat-work-project/sessions/3e7dfd39-96f7-438f-86f9-7f773e6d5295"
	ash := "ash/generated-v2/sessions/cli"
	ocs := "opencode/xdg/opencode/storage"
	legacy := "opencode/legacy-v0.5.29/project/home-dev-v0-proj/storage/session"
	// skip: the commands that never read that file (info reads no blob,
	// only validate reads storage/migration); they must still not block.
	cases := []fifoCase{
		{"ash history", "ash/generated-v2", ash + "/history.jsonl", nil},
		{"ash state", "ash/generated-v2", ash + "/state.json", nil},
		{"ash context", "ash/generated-v2", ash + "/context.jsonl", nil},
		{"ash sub-agent", "ash/generated-v2", ash + "/subagents/fb5a5abc-bbbb-4d30-a90d-e926458e34ed.jsonl", nil},
		{"goat messages", "goat/generated", goat + "/messages.jsonl", nil},
		{"goat blob", "goat/generated", goat + "/checkpoints/session-end/files/df1d036cbbf3df46e2045071e082245ece204c7f53ecf0a4e022bff9bb228f47", []string{"info"}},
		{"goat manifest", "goat/generated", goat + "/checkpoints/session-end/manifest.json", nil},
		{"goat metadata", "goat/generated", goat + "/metadata.json", nil},
		{"opencode message", "opencode/xdg", ocs + "/message/ses_e03a7a64affe0wHc2prdw2R2s7/" + firstFile(t, ocs+"/message/ses_e03a7a64affe0wHc2prdw2R2s7"), nil},
		{"opencode session", "opencode/xdg", ocs + "/session/a5ee440f3a5b15dd18869d161cddabbf9605e671/" + firstFile(t, ocs+"/session/a5ee440f3a5b15dd18869d161cddabbf9605e671"), nil},
		{"opencode migration", "opencode/xdg", ocs + "/migration", []string{"info", "export", "convert"}},
		{"legacy message", "opencode/legacy-v0.5.29", legacy + "/message/ses_e03a1a3d1ffevytanlsDRtnqmV/msg_1fc5e5c32001Iwfs6U8ts3F6PX.json", nil},
		{"legacy info", "opencode/legacy-v0.5.29", legacy + "/info/ses_e03a1a3d1ffevytanlsDRtnqmV.json", nil},
	}
	// under -short, one pipe: ash's context, the file every command reads
	for _, c := range short.Cases(t, cases, func(c fifoCase) bool { return c.name == "ash context" }) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, filepath.Join("testdata", "samples", c.sample), filepath.Join(dir, "in"))
			rel, err := filepath.Rel(c.sample, c.fifo)
			if err != nil {
				t.Fatal(err)
			}
			pipe := filepath.Join(dir, "in", rel)
			if err := os.Remove(pipe); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(pipe, 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
			for _, args := range [][]string{
				{"validate", "in"},
				{"info", "in"},
				{"export", "markdown", "-o", "md", "in"},
				{"convert", "--to", "tree", "-o", "tree", "in"},
			} {
				r := runBin(t, dir, nil, 20*time.Second, args...)
				if r.hung != "" {
					t.Fatalf("%v blocked on the FIFO", args)
				}
				if slices.Contains(c.skip, args[0]) {
					continue
				}
				if r.code == 0 || !strings.Contains(r.out, "not a regular file") || !strings.Contains(r.out, filepath.Base(pipe)) {
					t.Errorf("%v: exit %d, want non-zero and a line naming %s as not a regular file:\n%s", args, r.code, filepath.Base(pipe), clipOut(r.out))
				}
			}
		})
	}
}

func firstFile(t *testing.T, rel string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join("testdata", "samples", rel))
	if err != nil || len(ents) == 0 {
		t.Fatalf("list %s: %v", rel, err)
	}
	return ents[0].Name()
}
