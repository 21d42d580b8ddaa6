package fastschema

import (
	"bytes"
	"cmp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// result is a three-way answer. fail and pass must be certain; anything the
// fast path cannot decide exactly is unsure, which the caller treats as
// "ask the full validator". So unsure is always a safe answer.
type result uint8

const (
	fail result = iota
	pass
	unsure
)

var tapes = sync.Pool{New: func() any { return new(tape) }}

// maxPooledTokens keeps one huge line from pinning its tape's memory.
const maxPooledTokens = 1 << 16

// Valid reports whether b is certainly a valid JSON text (UTF-8, syntax, no
// key twice in one object) that the schema accepts. false means "not sure":
// run the full validator.
func (v *Validator) Valid(b []byte) bool {
	t := tapes.Get().(*tape)
	defer release(t)
	return t.parse(b) && eval(t, v.root, 0) == pass
}

// Syntax reports whether b is certainly a valid JSON text, with the same
// meaning of false as Valid.
func Syntax(b []byte) bool {
	t := tapes.Get().(*tape)
	defer release(t)
	return t.parse(b)
}

func release(t *tape) {
	t.b = nil
	if cap(t.toks) > maxPooledTokens {
		t.toks = nil
	}
	tapes.Put(t)
}

func eval(t *tape, n *node, k int) result {
	if n.boolean != nil {
		return truth(*n.boolean)
	}
	r := typeOf(t, n, k)
	if r == pass {
		r = constOf(t, n, k)
	}
	if r == pass {
		r = stringOf(t, n, k)
	}
	if r == pass {
		r = numberOf(t, n, k)
	}
	if r == pass {
		r = objectOf(t, n, k)
	}
	if r == pass {
		r = arrayOf(t, n, k)
	}
	if r == pass {
		r = combined(t, n, k)
	}
	if r == pass {
		r = conditional(t, n, k)
	}
	return r
}

func typeOf(t *tape, n *node, k int) result {
	if n.types == 0 {
		return pass
	}
	tok := &t.toks[k]
	if n.types&(1<<tok.kind) == 0 {
		return fail
	}
	if tok.kind == kNumber && n.integer && !tok.plain {
		return truth(integral(t.raw(k))) // 1.0 and 1e2 are integers to JSON Schema
	}
	return pass
}

// integral reports whether a JSON number literal has an integer value,
// exactly: the digits without their trailing zeros are an integer, so the
// value is one when the exponent, less the digits after the point, plus
// those zeros, is not negative. It reads lit without writing to it.
func integral(lit []byte) bool {
	mant, exp := lit, 0
	if i := bytes.IndexAny(lit, "eE"); i >= 0 {
		mant = lit[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(string(lit[i+1:]), "+"))
		if err != nil {
			return false // the tape allows three exponent digits, so never
		}
		exp = e
	}
	intPart, frac, _ := bytes.Cut(bytes.TrimPrefix(mant, []byte("-")), []byte("."))
	// zeros: the trailing zeros of the digits intPart and frac make
	zeros := len(frac) - len(bytes.TrimRight(frac, "0"))
	if zeros == len(frac) {
		i := bytes.TrimRight(intPart, "0")
		if len(i) == 0 {
			return true // zero
		}
		zeros += len(intPart) - len(i)
	}
	return exp-len(frac)+zeros >= 0
}

func constOf(t *tape, n *node, k int) result {
	if !n.hasConst {
		return pass
	}
	out := fail
	for _, l := range n.consts {
		switch equal(t, k, l) {
		case pass:
			return pass
		case unsure:
			out = unsure
		}
	}
	return out
}

func equal(t *tape, k int, l literal) result {
	tok := &t.toks[k]
	if tok.kind != l.kind {
		return fail
	}
	switch tok.kind {
	case kString:
		if tok.esc {
			return unsure
		}
		return truth(string(t.raw(k)) == l.text)
	case kBool:
		return truth(strconv.FormatBool(tok.truth) == l.text)
	case kNull:
		return pass
	}
	i, err := strconv.ParseInt(t.text(k), 10, 64)
	if err != nil {
		return unsure // 1.0 equals 1 to JSON Schema
	}
	return truth(strconv.FormatInt(i, 10) == l.text)
}

func truth(ok bool) result {
	if ok {
		return pass
	}
	return fail
}

func stringOf(t *tape, n *node, k int) result {
	tok := &t.toks[k]
	if tok.kind != kString || n.minLen == 0 && n.maxLen < 0 && n.pattern == nil {
		return pass
	}
	if tok.esc {
		return unsure
	}
	s := t.raw(k)
	if n.minLen > 0 || n.maxLen >= 0 {
		runes := utf8.RuneCount(s)
		if runes < n.minLen || n.maxLen >= 0 && runes > n.maxLen {
			return fail
		}
	}
	if n.pattern != nil && !n.pattern.Match(s) {
		return fail
	}
	return pass
}

// numberOf checks minimum, maximum and exclusiveMinimum.
func numberOf(t *tape, n *node, k int) result {
	tok := &t.toks[k]
	if tok.kind != kNumber || n.minimum == nil && n.maximum == nil && n.exclMin == nil {
		return pass
	}
	r := pass
	for _, c := range [...]struct {
		bound *int64
		ok    func(sign int) bool // sign of value - bound
	}{
		{n.minimum, func(sign int) bool { return sign >= 0 }},
		{n.maximum, func(sign int) bool { return sign <= 0 }},
		{n.exclMin, func(sign int) bool { return sign > 0 }},
	} {
		if c.bound == nil {
			continue
		}
		cmp, sure := compare(t, k, *c.bound)
		switch {
		case !sure:
			r = unsure
		case !c.ok(cmp):
			return fail
		}
	}
	return r
}

// compare returns the sign of number token k minus m, when it is sure of
// it. A float literal is compared after rounding to float64, which keeps
// order except at equality (m is at most 2^53 in magnitude, so exactly
// representable); equality is left to the full validator.
func compare(t *tape, k int, m int64) (int, bool) {
	if t.toks[k].plain {
		i, err := strconv.ParseInt(t.text(k), 10, 64)
		if err == nil {
			return cmp.Compare(i, m), true
		}
	}
	f, _ := strconv.ParseFloat(t.text(k), 64) // out of range gives ±Inf or ±0, still in order
	switch fm := float64(m); {
	case f > fm:
		return 1, true
	case f < fm:
		return -1, true
	}
	return 0, false
}

func objectOf(t *tape, n *node, k int) result {
	tok := &t.toks[k]
	if tok.kind != kObject || n.keys == nil && n.extra == nil {
		return pass
	}
	var seen uint64
	m := k + 1
	for i := 0; i < tok.count; i++ {
		rule := n.rule(t.raw(m))
		seen |= rule.bit
		var r result = pass
		if rule.prop != nil {
			r = eval(t, rule.prop, m+1)
		} else if n.extra != nil { // additionalProperties: keys not in properties
			r = eval(t, n.extra, m+1)
		}
		if r != pass {
			return r
		}
		m = t.toks[m+1].next
	}
	return truth(seen == n.allRequired)
}

func arrayOf(t *tape, n *node, k int) result {
	tok := &t.toks[k]
	if tok.kind != kArray || n.items == nil && n.minItems == 0 {
		return pass
	}
	if tok.count < n.minItems {
		return fail
	}
	if n.items == nil {
		return pass
	}
	e := k + 1
	for i := 0; i < tok.count; i++ {
		if r := eval(t, n.items, e); r != pass {
			return r
		}
		e = t.toks[e].next
	}
	return pass
}

// combined applies $ref, allOf, anyOf and oneOf.
func combined(t *tape, n *node, k int) result {
	for _, r := range n.refs {
		if res := eval(t, r, k); res != pass {
			return res
		}
	}
	if res := allOf(t, n, k); res != pass {
		return res
	}
	if n.anyOf != nil {
		out := fail
		for _, s := range n.anyOf {
			switch eval(t, s, k) {
			case pass:
				return pass
			case unsure:
				out = unsure
			}
		}
		if out != pass {
			return out
		}
	}
	if n.oneOf != nil {
		passes := 0
		for _, s := range n.oneOf {
			switch eval(t, s, k) {
			case pass:
				passes++
			case unsure:
				return unsure
			}
		}
		return truth(passes == 1)
	}
	return pass
}

func allOf(t *tape, n *node, k int) result {
	if n.dispatch != nil && t.toks[k].kind == kObject {
		return dispatch(t, n, k)
	}
	for _, s := range n.allOf {
		if res := eval(t, s, k); res != pass {
			return res
		}
	}
	return pass
}

// dispatch is allOf of if/then pairs keyed on one member's string value:
// only the "then" of the matching constant applies, and none when the
// member is missing or not a string.
func dispatch(t *tape, n *node, k int) result {
	m := k + 1
	for i := 0; i < t.toks[k].count; i++ {
		if string(t.raw(m)) == n.dispatchKey {
			val := &t.toks[m+1]
			if val.kind != kString {
				return pass
			}
			if val.esc {
				return unsure
			}
			if then, ok := n.dispatch[string(t.raw(m+1))]; ok {
				return eval(t, then, k)
			}
			return pass
		}
		m = t.toks[m+1].next
	}
	return pass
}

func conditional(t *tape, n *node, k int) result {
	if n.not != nil {
		switch eval(t, n.not, k) {
		case pass:
			return fail
		case unsure:
			return unsure
		}
	}
	if n.ifS == nil || n.thenS == nil && n.elseS == nil {
		return pass
	}
	branch := n.thenS
	switch eval(t, n.ifS, k) {
	case fail:
		branch = n.elseS
	case unsure:
		return unsure
	}
	if branch == nil {
		return pass
	}
	return eval(t, branch, k)
}
