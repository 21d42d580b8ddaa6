package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A suspended file holds no descriptor and stays pending: written on after
// Resume at its end, committed or aborted either way, and until then the
// target is untouched and only the temporary file exists.
func TestSuspendResume(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps string // w: write a letter, s: suspend, r: resume
		end   string // commit or abort
		want  string // the target's content; "" when it must not exist
	}{
		{"suspended, resumed, written on", "wsrw", "commit", "ab"},
		{"committed while suspended", "wsrwws", "commit", "abc"},
		{"suspended twice, resumed twice", "wssrrw", "commit", "ab"},
		{"aborted while suspended", "ws", "abort", ""},
		{"aborted after resume", "wsrw", "abort", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f")
			f, err := Create(p, 0o644, false)
			if err != nil {
				t.Fatal(err)
			}
			letter := byte('a')
			for _, s := range tc.steps {
				switch s {
				case 'w':
					if _, err := f.Write([]byte{letter}); err != nil {
						t.Fatal(err)
					}
					letter++
				case 's':
					if err := f.Suspend(); err != nil {
						t.Fatal(err)
					}
				case 'r':
					if err := f.Resume(); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Fatalf("the target exists before the commit: %v", err)
			}
			if tc.end == "commit" {
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
			} else {
				f.Abort()
			}
			b, err := os.ReadFile(p)
			if tc.want == "" && !os.IsNotExist(err) || tc.want != "" && string(b) != tc.want {
				t.Errorf("target %q (%v), want %q", b, err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != map[bool]int{true: 0, false: 1}[tc.want == ""] {
				t.Errorf("left in the directory: %v", ents)
			}
		})
	}
}
