package fastschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// node is one compiled schema. Every keyword it has must hold.
type node struct {
	boolean  *bool // a true or false schema
	types    uint8 // bit per kind; 0 means any
	integer  bool  // "type" allows integers but not other numbers
	consts   []literal
	hasConst bool // consts is an enum or a const (an empty enum fails all)
	minLen   int
	maxLen   int // -1 when there is no maxLength
	pattern  *regexp.Regexp
	minimum  *int64
	maximum  *int64
	exclMin  *int64 // exclusiveMinimum
	minItems int
	props    map[string]*node
	required []string
	extra    *node // additionalProperties
	items    *node
	refs     []*node // $ref (applies alongside the other keywords)
	allOf    []*node
	anyOf    []*node
	oneOf    []*node
	not      *node
	ifS      *node
	thenS    *node
	elseS    *node
	// dispatch is allOf's if/then list when every "if" only says
	// {"required": [key], "properties": {key: {"const": "..."}}}: one lookup
	// of key's value picks the one "then" that applies.
	dispatchKey string
	dispatch    map[string]*node
	// keys joins properties and required for one lookup per member; a
	// node with a few keys has them in small too, searched in order, which
	// is cheaper than hashing the member's name.
	keys        map[string]keyRule
	small       []smallKey
	allRequired uint64
}

type smallKey struct {
	name string
	rule keyRule
}

// maxSmallKeys is the most keys a node searches in order.
const maxSmallKeys = 8

// rule is the keyRule of member name (the zero rule for a name the
// schema does not list).
func (n *node) rule(name []byte) keyRule {
	if n.small == nil {
		return n.keys[string(name)]
	}
	for i := range n.small {
		if n.small[i].name == string(name) {
			return n.small[i].rule
		}
	}
	return keyRule{}
}

type keyRule struct {
	prop *node  // the member's schema under "properties", if any
	bit  uint64 // its bit among "required", if any
}

// literal is a const or enum value: a string's value, or a number,
// boolean or null's canonical text.
type literal struct {
	kind kind
	text string
}

// ignored are keywords that assert nothing under Draft 2020-12 as sesstool
// uses it ("format" and the content keywords are annotations unless format
// or content assertion is switched on, which sesstool does not do).
var ignored = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "definitions": true, "$comment": true, "title": true,
	"description": true, "examples": true, "default": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "format": true,
	"contentEncoding": true, "contentMediaType": true,
}

// known are the keywords jsonschema/v6 gives a meaning under some draft.
// A keyword outside this list (a schema generator's "x-enumDescriptions",
// "stability", "visibility") is an annotation the full validator ignores,
// so the fast path ignores it too; a known keyword the fast path does not
// compile keeps the schema off the fast path.
var known = map[string]bool{
	"$schema": true, "$id": true, "id": true, "$ref": true, "$dynamicRef": true,
	"$recursiveRef": true, "$anchor": true, "$dynamicAnchor": true,
	"$recursiveAnchor": true, "$vocabulary": true, "$comment": true,
	"$defs": true, "definitions": true,
	"type": true, "enum": true, "const": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true,
	"minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "pattern": true, "format": true,
	"items": true, "prefixItems": true, "additionalItems": true,
	"contains": true, "minContains": true, "maxContains": true,
	"maxItems": true, "minItems": true, "uniqueItems": true,
	"unevaluatedItems": true,
	"properties":       true, "patternProperties": true,
	"additionalProperties": true, "propertyNames": true, "required": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"maxProperties": true, "minProperties": true,
	"unevaluatedProperties": true,
	"allOf":                 true, "anyOf": true, "oneOf": true, "not": true,
	"if": true, "then": true, "else": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
}

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// Compiler turns schema documents into validators. Load returns the bytes of
// a document by its absolute URL (the $id it declares).
type Compiler struct {
	Load  func(url string) ([]byte, error)
	docs  map[string]any
	nodes map[string]*node
	// fresh lists the nodes registered during the Compile call under way.
	// A node is registered before its keywords compile (so cycles close),
	// so until the whole call succeeds they may be incomplete: an empty
	// node accepts everything.
	fresh []string
}

// Validator checks JSON texts against one compiled schema. It is safe for
// concurrent use.
type Validator struct{ root *node }

// Compile compiles the schema at an absolute URL (with an optional JSON
// Pointer fragment). It fails for a keyword or value the fast path does not
// model; such a schema keeps the full validator only.
func (c *Compiler) Compile(ref string) (*Validator, error) {
	if c.docs == nil {
		c.docs, c.nodes = map[string]any{}, map[string]*node{}
	}
	c.fresh = c.fresh[:0]
	n, err := c.ref(ref)
	if err != nil {
		// Drop every node this call registered: a later Compile that
		// reaches one must compile it again (and fail again), never take
		// a half-filled node that would accept what its schema rejects.
		for _, r := range c.fresh {
			delete(c.nodes, r)
		}
		return nil, err
	}
	return &Validator{root: n}, nil
}

// ref compiles the schema a resolved reference names, once: a node is
// registered before its keywords are compiled, so cycles close on it.
func (c *Compiler) ref(ref string) (*node, error) {
	if n, ok := c.nodes[ref]; ok {
		return n, nil
	}
	doc, frag, _ := strings.Cut(ref, "#")
	root, err := c.doc(doc)
	if err != nil {
		return nil, err
	}
	v, err := pointer(root, frag)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	n := &node{maxLen: -1}
	c.nodes[ref] = n
	c.fresh = append(c.fresh, ref)
	if err := c.fill(n, v, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	return n, nil
}

func (c *Compiler) doc(u string) (any, error) {
	if d, ok := c.docs[u]; ok {
		return d, nil
	}
	b, err := c.Load(u)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var d any
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	if m, ok := d.(map[string]any); ok {
		if s, ok := m["$schema"]; ok && s != draft2020 {
			return nil, fmt.Errorf("%s: only Draft 2020-12 is compiled, not %v", u, s)
		}
		if id, ok := m["$id"]; ok && id != u {
			return nil, fmt.Errorf("%s: $id is %v", u, id)
		}
	}
	c.docs[u] = d
	return d, nil
}

// pointer resolves a JSON Pointer fragment in a decoded document.
func pointer(v any, frag string) (any, error) {
	if frag == "" {
		return v, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("fragment %q is not a JSON Pointer", frag)
	}
	for _, part := range strings.Split(frag[1:], "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("pointer %q: %q is not in an object", frag, part)
		}
		if v, ok = m[part]; !ok {
			return nil, fmt.Errorf("pointer %q: no %q", frag, part)
		}
	}
	return v, nil
}

// sub compiles a subschema that is not a reference target of its own.
func (c *Compiler) sub(v any, base string) (*node, error) {
	n := &node{maxLen: -1}
	return n, c.fill(n, v, base)
}

func (c *Compiler) fill(n *node, v any, base string) error {
	if b, ok := v.(bool); ok {
		n.boolean = &b
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("a schema must be an object or a boolean, not %T", v)
	}
	if id, ok := m["$id"].(string); ok && id != base {
		return fmt.Errorf("nested $id %q is not compiled", id)
	}
	for k, val := range m {
		if ignored[k] || !known[k] {
			continue
		}
		if err := c.keyword(n, k, val, base, m); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return n.joinKeys()
}

func (n *node) joinKeys() error {
	if n.props == nil && n.required == nil {
		return nil
	}
	if len(n.required) > 64 {
		return fmt.Errorf("more than 64 required members are not compiled")
	}
	n.keys = make(map[string]keyRule, len(n.props)+len(n.required))
	for k, p := range n.props {
		n.keys[k] = keyRule{prop: p}
	}
	for i, k := range n.required {
		r := n.keys[k]
		if r.bit == 0 {
			r.bit = 1 << i
		}
		n.keys[k] = r
		n.allRequired |= r.bit
	}
	if len(n.keys) <= maxSmallKeys {
		n.small = make([]smallKey, 0, len(n.keys))
		for k, r := range n.keys {
			n.small = append(n.small, smallKey{k, r})
		}
		// map order is random: sorted, so runs are the same
		sort.Slice(n.small, func(i, j int) bool { return n.small[i].name < n.small[j].name })
	}
	return nil
}

func (c *Compiler) keyword(n *node, k string, v any, base string, m map[string]any) error {
	var err error
	switch k {
	case "type":
		n.types, n.integer, err = types(v)
	case "const":
		n.hasConst = true
		var l literal
		if l, err = lit(v); err == nil {
			n.consts = []literal{l}
		}
	case "enum":
		n.hasConst = true
		n.consts, err = enum(v)
	case "minLength":
		n.minLen, err = smallInt(v)
	case "maxLength":
		n.maxLen, err = smallInt(v)
	case "minItems":
		n.minItems, err = smallInt(v)
	case "minimum":
		n.minimum, err = bound(v)
	case "maximum":
		n.maximum, err = bound(v)
	case "exclusiveMinimum":
		n.exclMin, err = bound(v)
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		n.pattern, err = regexp.Compile(s) // the engine jsonschema/v6 uses by default
	case "required":
		n.required, err = strs(v)
	case "properties":
		n.props, err = c.props(v, base)
	case "additionalProperties":
		n.extra, err = c.sub(v, base)
	case "items":
		n.items, err = c.sub(v, base)
	case "allOf":
		if n.allOf, err = c.list(v, base); err == nil {
			n.dispatchKey, n.dispatch = dispatchOf(v.([]any), n.allOf)
		}
	case "anyOf":
		n.anyOf, err = c.list(v, base)
	case "oneOf":
		n.oneOf, err = c.list(v, base)
	case "if":
		n.ifS, err = c.sub(v, base)
	case "then":
		if _, ok := m["if"]; ok { // "then" without "if" is ignored
			n.thenS, err = c.sub(v, base)
		}
	case "else":
		if _, ok := m["if"]; ok { // so is "else"
			n.elseS, err = c.sub(v, base)
		}
	case "not":
		n.not, err = c.sub(v, base)
	case "$ref":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		var target string
		if target, err = resolve(base, s); err == nil {
			var r *node
			if r, err = c.ref(target); err == nil {
				n.refs = append(n.refs, r)
			}
		}
	default:
		return fmt.Errorf("keyword not compiled")
	}
	return err
}

func resolve(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	u := b.ResolveReference(r).String()
	if strings.HasSuffix(u, "#") {
		u = strings.TrimSuffix(u, "#")
	}
	return u, nil
}

func (c *Compiler) props(v any, base string) (map[string]*node, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	out := make(map[string]*node, len(m))
	for k, s := range m {
		n, err := c.sub(s, base)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = n
	}
	return out, nil
}

func (c *Compiler) list(v any, base string) ([]*node, error) {
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return nil, fmt.Errorf("not a non-empty array")
	}
	out := make([]*node, len(a))
	for i, s := range a {
		n, err := c.sub(s, base)
		if err != nil {
			return nil, fmt.Errorf("%d: %w", i, err)
		}
		out[i] = n
	}
	return out, nil
}

var kindNames = map[string]kind{
	"null": kNull, "boolean": kBool, "object": kObject, "array": kArray,
	"number": kNumber, "string": kString,
}

func types(v any) (set uint8, integer bool, err error) {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	number := false
	for _, x := range names {
		s, _ := x.(string)
		if s == "integer" {
			integer = true
			set |= 1 << kNumber
			continue
		}
		k, ok := kindNames[s]
		if !ok {
			return 0, false, fmt.Errorf("unknown type %v", x)
		}
		number = number || k == kNumber
		set |= 1 << k
	}
	return set, integer && !number, nil
}

func lit(v any) (literal, error) {
	switch x := v.(type) {
	case string:
		return literal{kind: kString, text: x}, nil
	case bool:
		return literal{kind: kBool, text: strconv.FormatBool(x)}, nil
	case nil:
		return literal{kind: kNull, text: "null"}, nil
	case json.Number:
		i, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			return literal{}, fmt.Errorf("only integer number constants are compiled")
		}
		return literal{kind: kNumber, text: strconv.FormatInt(i, 10)}, nil
	}
	return literal{}, fmt.Errorf("only scalar constants are compiled")
}

func enum(v any) ([]literal, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not an array")
	}
	out := make([]literal, len(a))
	for i, x := range a {
		l, err := lit(x)
		if err != nil {
			return nil, err
		}
		out[i] = l
	}
	return out, nil
}

func smallInt(v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("not a number")
	}
	i, err := strconv.Atoi(string(n))
	if err != nil || i < 0 || i > 1<<30 {
		return 0, fmt.Errorf("only small non-negative integers are compiled, not %s", n)
	}
	return i, nil
}

// maxExact is 2^53: every integer up to it in magnitude is a float64.
const maxExact = 1 << 53

// bound reads a number keyword's value: an integer (written 1 or 1.0) of
// at most 2^53 in magnitude, so that a float64 holds it exactly and the
// comparisons in numberOf are exact.
func bound(v any) (*int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("not a number")
	}
	r, ok := new(big.Rat).SetString(string(n)) // exact: 1.0 is an integer, 2^53+1 is not rounded
	if !ok || !r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() > maxExact || r.Num().Int64() < -maxExact {
		return nil, fmt.Errorf("only integers up to 2^53 are compiled, not %s", n)
	}
	i := r.Num().Int64()
	return &i, nil
}

func strs(v any) ([]string, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not an array")
	}
	out := make([]string, len(a))
	for i, x := range a {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("not an array of strings")
		}
		out[i] = s
	}
	return out, nil
}

// dispatchOf recognises an allOf whose every item is
// {"if": {"required": [k], "properties": {k: {"const": s}}}, "then": ...}
// with one k and distinct string constants s, and maps each s to the
// compiled "then" of its item. Any other shape returns no map, and the
// items are then evaluated one by one.
func dispatchOf(raw []any, items []*node) (string, map[string]*node) {
	key, out := "", make(map[string]*node, len(raw))
	for i, x := range raw {
		k, s, ok := ifConst(x)
		if !ok || (key != "" && k != key) {
			return "", nil
		}
		if _, dup := out[s]; dup {
			return "", nil
		}
		key, out[s] = k, items[i].thenS
	}
	return key, out
}

// ifConst matches one dispatch item and returns its key and constant.
func ifConst(x any) (key, val string, ok bool) {
	item, _ := x.(map[string]any)
	cond, _ := item["if"].(map[string]any)
	if len(item) != 2 || item["then"] == nil || len(cond) != 2 {
		return "", "", false
	}
	req, _ := cond["required"].([]any)
	props, _ := cond["properties"].(map[string]any)
	if len(req) != 1 || len(props) != 1 {
		return "", "", false
	}
	key, _ = req[0].(string)
	c, _ := props[key].(map[string]any)
	val, ok = c["const"].(string)
	return key, val, ok && len(c) == 1
}
