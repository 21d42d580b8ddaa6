package session

import "github.com/sesstool/sesstool/jsonx"

// Obj builds one JSON object a writer encodes from model slots, then the
// owning value's Extras. A slot whose key is also in Extras is skipped:
// Extras hold the source's own value for a key whenever the model could not
// (a value of an unexpected type, an empty string, a false flag), so they
// win, and no key is written twice.
type Obj struct {
	o     jsonx.Obj
	extra Extras
}

// NewObj starts an object whose Extras x are written last.
func NewObj(x Extras) *Obj { return &Obj{extra: x} }

// ObjAt starts an object appended to dst (jsonx.ObjAt): Bytes returns dst
// followed by the object.
func ObjAt(dst []byte, x Extras) Obj { return Obj{o: jsonx.ObjAt(dst), extra: x} }

// Has reports whether Extras hold key k (so the slot is not written).
func (b *Obj) Has(k string) bool { return b.extra.Get(k) != nil }

// Str writes a string slot.
func (b *Obj) Str(k, v string) {
	if !b.Has(k) {
		b.o.Str(k, v)
	}
}

// OptStr writes a string slot only when it is set.
func (b *Obj) OptStr(k, v string) {
	if v != "" {
		b.Str(k, v)
	}
}

// Int writes an integer slot.
func (b *Obj) Int(k string, v int64) {
	if !b.Has(k) {
		b.o.Int(k, v)
	}
}

// Float writes a number slot.
func (b *Obj) Float(k string, v float64) {
	if !b.Has(k) {
		b.o.Float(k, v)
	}
}

// Bool writes a boolean slot.
func (b *Obj) Bool(k string, v bool) {
	if !b.Has(k) {
		b.o.Bool(k, v)
	}
}

// Raw writes an already-encoded slot; nil is written as null.
func (b *Obj) Raw(k string, v []byte) {
	if !b.Has(k) {
		b.o.Raw(k, v)
	}
}

// OptRaw writes an already-encoded slot only when it is set.
func (b *Obj) OptRaw(k string, v []byte) {
	if v != nil {
		b.Raw(k, v)
	}
}

// Append writes a slot whose value f appends to the buffer it is given
// (jsonx.Obj.Append).
func (b *Obj) Append(k string, f func(dst []byte) []byte) {
	if !b.Has(k) {
		b.o.Append(k, f)
	}
}

// Null writes a null slot.
func (b *Obj) Null(k string) {
	if !b.Has(k) {
		b.o.Null(k)
	}
}

// Bytes appends the Extras in source order and returns the object.
func (b *Obj) Bytes() []byte {
	for _, f := range b.extra {
		b.o.Raw(f.Key, f.Value)
	}
	return b.o.Bytes()
}
