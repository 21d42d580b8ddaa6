package schema

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

// Issue is one leaf of a schema validation error.
type Issue struct {
	Pointer string // JSON pointer into the instance
	Keyword string // schema location: file#/keyword/path
	Message string
}

// Issues flattens a jsonschema error into its leaves. v6's own basic
// output drops causes nested under $ref inside oneOf, so we walk Causes
// ourselves. Any other error is one issue with no schema location.
func Issues(err error) []Issue {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Message: err.Error()}}
	}
	var out []Issue
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
	slices.SortStableFunc(out, func(a, b Issue) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Message, b.Message))
	})
	return out
}

func leaf(e *jsonschema.ValidationError) Issue {
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
	return Issue{Pointer: ptr, Keyword: loc, Message: e.ErrorKind.LocalizedString(printer)}
}

// Format renders an issue's message with its schema location, relative to
// Base; an issue with no location (the panic guard's) is its message alone.
func (s Issue) Format() string {
	if s.Keyword == "" {
		return s.Message
	}
	return fmt.Sprintf("%s [schema %s]", s.Message, strings.TrimPrefix(s.Keyword, Base))
}
