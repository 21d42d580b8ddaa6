// Package jsonx holds the JSON primitives every format shares: iterating an
// object's members in source order, encoding strings the way JavaScript's and
// Python's serialisers do, semantic equality, locating syntax errors, and
// Merge, which lets a writer reproduce its input byte for byte.
package jsonx
