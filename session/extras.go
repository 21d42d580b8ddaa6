package session

import "encoding/json"

// Field is one JSON member the model has no slot for, kept verbatim.
type Field struct {
	Key   string
	Value json.RawMessage
}

// Extras are the members of one source JSON object the model has no slot
// for, in source order, and nothing else: a layout's notes on its own
// spelling go in Source.Private. They are only meaningful to the layout named
// by the owning Entry's or Meta's Origin: a writer of another layout counts
// them as lost rather than emitting them.
type Extras []Field

// Get returns the raw value of key, or nil.
func (x Extras) Get(key string) json.RawMessage {
	for _, f := range x {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// Set replaces key's value, or appends it.
func (x *Extras) Set(key string, v json.RawMessage) {
	for i, f := range *x {
		if f.Key == key {
			(*x)[i].Value = v
			return
		}
	}
	*x = append(*x, Field{Key: key, Value: v})
}

// Delete removes key if present.
func (x *Extras) Delete(key string) {
	out := (*x)[:0]
	for _, f := range *x {
		if f.Key != key {
			out = append(out, f)
		}
	}
	*x = out
}
