package pipeline

import "fmt"

// RuleGrew: a session file grew while the run read it. The run read it as
// it was when found (format.Ref.Size); what was appended is not in the
// output, and the user is told rather than left to find it missing.
const RuleGrew = "grew"

// Grown returns a warning for each session file of in that is now longer
// than when the run found it.
func (in *Input) Grown() []Skip {
	var out []Skip
	seen := map[string]bool{}
	for _, j := range in.Jobs {
		p, found := j.Ref.Path, j.Ref.Size
		if found == 0 || seen[p] {
			continue
		}
		seen[p] = true
		if now := fileSize(p); now > found {
			out = append(out, Skip{Path: in.Show(p), Rule: RuleGrew,
				Message: fmt.Sprintf("grew by %d bytes while it was read (its agent still writing?); read as it was when found, %d bytes: what was appended is not in the output", now-found, found)})
		}
	}
	return out
}
