package qwen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/qwen"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
	"github.com/sesstool/sesstool/report"
)

// A parentUuid naming no earlier line is an error, as in Claude Code's
// layout: Qwen Code would cut the conversation at it, and pi's tree has no
// entry to hang the line from. A file validate accepts converts to a valid
// session in every layout (the fuzz targets' property).
func TestDanglingParent(t *testing.T) {
	const u1, u2, u3 = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"
	for _, c := range []struct {
		name    string
		parents [3]string // of the three lines; "" is null
		want    int       // the line dangling-parent names, 0 for none
	}{
		{name: "a chain", parents: [3]string{"", u1, u2}},
		{name: "a second root", parents: [3]string{"", u1, ""}},
		{name: "a rewind (a parent further back)", parents: [3]string{"", u1, u1}},
		{name: "a parent no line has", parents: [3]string{"", "00000000-0000-4000-8000-000000000009", u2}, want: 2},
		{name: "the first line's parent is gone (a mutated uuid)", parents: [3]string{"7455fd4a", u1, u2}, want: 1},
		{name: "a parent on a later line", parents: [3]string{"", u3, u2}, want: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := sessionFile(t, []byte(threeLines([3]string{u1, u2, u3}, c.parents)))
			rep := &report.Report{}
			if err := (qwen.Format{}).Validate(path, rep, format.ValidateOptions{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Findings() {
				if f.Rule == "dangling-parent" {
					got = append(got, fmt.Sprintf("%d %s", f.Line, f.Severity))
				}
			}
			var want []string
			if c.want != 0 {
				want = []string{fmt.Sprintf("%d %s", c.want, report.Error)}
			}
			if strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("dangling-parent findings %q, want %q (all: %v)", got, want, rep.Findings())
			}
			if c.want == 0 && rep.Errors() != 0 {
				t.Errorf("a valid file has errors: %v", rep.Findings())
			}
			fuzzcheck.Check(t, qwen.Format{}, path)
		})
	}
}

// threeLines is a user line, an assistant line and a user line with the
// given uuids and parents.
func threeLines(ids, parents [3]string) string {
	var b strings.Builder
	for i, typ := range []string{"user", "assistant", "user"} {
		parent, role := "null", "user"
		if parents[i] != "" {
			parent = fmt.Sprintf("%q", parents[i])
		}
		if typ == "assistant" {
			role = "model"
		}
		fmt.Fprintf(&b, `{"uuid":%q,"parentUuid":%s,"sessionId":"5d0c6a4e-3b7e-4f38-9a51-2f8d0c1e7a10","timestamp":"2026-11-28T10:00:0%d.000Z","type":%q,"cwd":"/w","version":"0.24.4","message":{"role":%q,"parts":[{"text":"turn %d"}]}}`+"\n",
			ids[i], parent, i+1, typ, role, i+1)
	}
	return b.String()
}
