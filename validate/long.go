package validate

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
)

// parseLong finishes a long line's scan: a line that is not well-formed
// gets the finding the full path would give, and a well-formed one hands
// its skeleton on as the line's bytes (true) unless even the skeleton was
// too large, which is said in a warning, never skipped silently.
func (j *JSONL) parseLong(it *item) bool {
	k := it.long
	it.b = k.head
	if it.n == 1 && k.bom {
		it.findings = append(it.findings, report.Finding{Path: j.Path, Line: 1, Column: 1, Severity: report.Error, Rule: "utf8-bom",
			Message: "the file starts with a UTF-8 byte order mark (EF BB BF), which JSON Lines does not allow"})
		return false
	}
	if rule, msg, col := k.finish(); rule != "" {
		it.findings = append(it.findings, report.Finding{Path: j.Path, Line: it.n, Column: int(col), Severity: report.Error, Rule: rule, Message: msg})
		return false
	}
	if k.overflow != "" {
		it.skipped = true
		it.findings = append(it.findings, report.Finding{Path: j.Path, Line: it.n, Severity: report.Warning, Rule: "long-line",
			Message: fmt.Sprintf("line of %d bytes checked for UTF-8 and JSON syntax only, not against the schema nor by the layout's rules: %s", k.size, k.overflow)})
		return false
	}
	it.b, it.cut = k.out, make([]string, len(k.cuts))
	for i, toks := range k.cuts {
		it.cut[i] = pointer(toks)
	}
	return true
}

// cutStrings warns of each string the skeleton cut where the schema could
// judge it by more than its type, and returns their pointers: findings
// there, made on the cut prefix, would not be about the line.
func (j *JSONL) cutStrings(it *item, sch *jsonschema.Schema) []string {
	var out []string
	for i, toks := range it.long.cuts {
		kw := schema.StringKeywords(sch, toks)
		if len(kw) == 0 {
			continue
		}
		ptr := it.cut[i]
		out = append(out, ptr)
		it.findings = append(it.findings, report.Finding{Path: j.Path, Line: it.n, Pointer: ptr, Severity: report.Warning, Rule: "long-line",
			Message: fmt.Sprintf("string of %d bytes in a line of %d bytes not checked against the schema's %s (a line this long is checked on a skeleton with long strings cut, and only their type is checked)",
				it.long.cutLens[i], it.long.size, strings.Join(kw, ", "))})
	}
	return out
}

func pointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// under reports whether ptr is one of list or inside one.
func under(ptr string, list []string) bool {
	for _, p := range list {
		if ptr == p || strings.HasPrefix(ptr, p+"/") {
			return true
		}
	}
	return false
}
