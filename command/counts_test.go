package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/session"
)

// TestCountsAgree: for every sample (the project's testdata/samples, and
// $SESSTOOL_SHARED's samples and real-world sessions where there), the
// commands count by one definition (docs/commands.md, "Counts"):
//   - validate's entries for a path are the entries info counts in its
//     sessions, which are the entries the layout's reader yields;
//   - info's messages are its message and custom_message entries, which are
//     the entries session.Entry.IsMessage says are messages.
//
// A path validate finds errors in is compared too: the counts do not depend
// on whether the content is valid, as long as it can be read.
func TestCountsAgree(t *testing.T) {
	checked := 0
	eachSample(t, func(u pipeline.Unit, _ []format.Ref, sessions []*session.Session) {
		t.Run(u.Path, func(t *testing.T) {
			infos := infoJSON(t, u.Format.Name(), u.Path)
			read, infoEntries := 0, 0
			for k, s := range sessions {
				read += len(s.Entries)
				if k >= len(infos) {
					t.Fatalf("info printed %d sessions, the layout has %d", len(infos), len(sessions))
				}
				st := infos[k]
				infoEntries += st.Entries
				if st.Entries != len(s.Entries) {
					t.Errorf("%s: info counts %d entries, the reader yields %d", st.ID, st.Entries, len(s.Entries))
				}
				want := 0
				for _, e := range s.Entries {
					if e.IsMessage() {
						want++
					}
				}
				if st.Messages != want || st.Messages != st.Kinds[string(session.KindMessage)]+st.Kinds[string(session.KindCustomMessage)] {
					t.Errorf("%s: info counts %d messages; its entries hold %d (kinds %v)", st.ID, st.Messages, want, st.Kinds)
				}
			}
			if v := validateEntries(t, u.Format.Name(), u.Path); v != read {
				t.Errorf("validate counts %d entries, info %d, the reader yields %d", v, infoEntries, read)
			}
			checked++
		})
	})
	if checked < 20 {
		t.Errorf("only %d paths compared: the samples were not found", checked)
	}
	t.Logf("%d paths compared", checked)
}

// validateEntries is the entries of validate's summary for path.
func validateEntries(t *testing.T, layout, path string) int {
	t.Helper()
	out, stderr, _ := run(func(env *Env) error {
		return Validate(env, ValidateOptions{Output: "json", Format: layout, Paths: []string{path}})
	})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Summary struct{ Entries int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("validate %s: no summary: %v\n%s%s", path, err, out, stderr)
	}
	return sum.Summary.Entries
}
