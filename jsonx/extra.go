package jsonx

// Has reports whether the object already has member k.
func (o *Obj) Has(k string) bool {
	if !o.open {
		return false
	}
	found := false
	_ = Members(append(o.b[o.start:len(o.b):len(o.b)], '}'), func(key string, _ []byte) {
		found = found || key == k
	})
	return found
}

// Extra adds a member kept verbatim from a source (a foreign field), unless
// the writer already wrote that key: a repeated key is read differently by
// different JSON parsers, and the writer's own value is the one the target
// layout defines. It reports whether the member was added.
func (o *Obj) Extra(k string, v []byte) bool {
	if o.Has(k) {
		return false
	}
	o.Raw(k, v)
	return true
}
