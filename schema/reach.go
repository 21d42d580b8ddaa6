package schema

import "github.com/santhosh-tekuri/jsonschema/v6"

// StringKeywords names the keywords of s that could judge the string at
// ptr (an instance location, as tokens) by more than its type: its length,
// pattern, format, value (enum, const, also on a container holding it), or
// uniqueness among its siblings. It over-approximates, following every
// branch (anyOf, oneOf, if/then/else, every pattern property) that could
// apply there, so none means a string of the same type at ptr gets the same
// verdict whatever its content: what a long line's skeleton relies on.
func StringKeywords(s *jsonschema.Schema, ptr []string) []string {
	w := reach{seen: map[visit]bool{}, found: map[string]bool{}}
	w.walk(s, ptr)
	var out []string
	for _, k := range []string{"enum", "const", "format", "minLength", "maxLength", "pattern",
		"contentEncoding", "contentMediaType", "contentSchema", "uniqueItems", "extension"} {
		if w.found[k] {
			out = append(out, k)
		}
	}
	return out
}

type visit struct {
	s     *jsonschema.Schema
	depth int
}

type reach struct {
	seen  map[visit]bool
	found map[string]bool
}

func (w *reach) walk(s *jsonschema.Schema, ptr []string) {
	if s == nil || w.seen[visit{s, len(ptr)}] {
		return
	}
	w.seen[visit{s, len(ptr)}] = true
	w.here(s, ptr)
	if s.Enum != nil {
		w.found["enum"] = true
	}
	if s.Const != nil {
		w.found["const"] = true
	}
	if len(s.Extensions) > 0 {
		w.found["extension"] = true
	}
	if len(ptr) == 0 {
		w.leaf(s)
		return
	}
	w.child(s, ptr)
}

// here follows the applicators that apply at the same location.
func (w *reach) here(s *jsonschema.Schema, ptr []string) {
	for _, sub := range []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else} {
		w.walk(sub, ptr)
	}
	if s.DynamicRef != nil {
		w.walk(s.DynamicRef.Ref, ptr)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			w.walk(sub, ptr)
		}
	}
	for _, sub := range s.DependentSchemas {
		w.walk(sub, ptr)
	}
	for _, d := range s.Dependencies {
		if sub, ok := d.(*jsonschema.Schema); ok {
			w.walk(sub, ptr)
		}
	}
}

func (w *reach) leaf(s *jsonschema.Schema) {
	set := func(on bool, k string) {
		if on {
			w.found[k] = true
		}
	}
	set(s.Format != nil, "format")
	set(s.MinLength != nil, "minLength")
	set(s.MaxLength != nil, "maxLength")
	set(s.Pattern != nil, "pattern")
	set(s.ContentEncoding != nil, "contentEncoding")
	set(s.ContentMediaType != nil, "contentMediaType")
	set(s.ContentSchema != nil, "contentSchema")
}

// child follows the applicators into the member or item ptr[0].
func (w *reach) child(s *jsonschema.Schema, ptr []string) {
	rest := ptr[1:]
	if s.UniqueItems && len(rest) == 0 {
		w.found["uniqueItems"] = true
	}
	w.walk(s.Properties[ptr[0]], rest)
	for _, sub := range s.PatternProperties {
		w.walk(sub, rest)
	}
	w.walk(s.UnevaluatedProperties, rest)
	w.walk(s.Items2020, rest)
	w.walk(s.Contains, rest)
	w.walk(s.UnevaluatedItems, rest)
	for _, sub := range s.PrefixItems {
		w.walk(sub, rest)
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch v := v.(type) {
		case *jsonschema.Schema:
			w.walk(v, rest)
		case []*jsonschema.Schema:
			for _, sub := range v {
				w.walk(sub, rest)
			}
		}
	}
}
