package validate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// SchemaIssue is one leaf of a schema validation error.
type SchemaIssue struct {
	Pointer string // JSON pointer into the instance
	Keyword string // schema location: file#/keyword/path
	Message string
}

// SchemaIssues flattens a jsonschema error into its leaves. v6's own basic
// output drops causes nested under $ref inside oneOf, so we walk Causes
// ourselves.
func SchemaIssues(err error) []SchemaIssue {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []SchemaIssue{{Message: err.Error()}}
	}
	var out []SchemaIssue
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, leaf(e))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	// v6 collects causes from maps (properties), so their order varies
	// from run to run; output must not.
	slices.SortStableFunc(out, func(a, b SchemaIssue) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Message, b.Message))
	})
	return out
}

func leaf(e *jsonschema.ValidationError) SchemaIssue {
	ptr := ""
	for _, tok := range e.InstanceLocation {
		tok = strings.ReplaceAll(tok, "~", "~0")
		ptr += "/" + strings.ReplaceAll(tok, "/", "~1")
	}
	url := e.SchemaURL
	var kw []string
	if ref, ok := e.ErrorKind.(*kind.Reference); ok {
		url = ref.URL
	} else {
		kw = e.ErrorKind.KeywordPath()
	}
	loc := url
	if len(kw) > 0 {
		if !strings.Contains(loc, "#") {
			loc += "#"
		}
		loc += "/" + strings.Join(kw, "/")
	}
	return SchemaIssue{Pointer: ptr, Keyword: loc, Message: e.ErrorKind.LocalizedString(printer)}
}

// Format renders an issue's message with its schema location.
func (s SchemaIssue) Format(base string) string {
	return fmt.Sprintf("%s [schema %s]", s.Message, strings.TrimPrefix(s.Keyword, base))
}
