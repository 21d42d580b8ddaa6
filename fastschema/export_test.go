package fastschema

// Check is the three-way answer for tests: "pass", "fail" or "unsure".
func Check(v *Validator, b []byte) string {
	t := new(tape)
	if !t.parse(b) {
		return "unsure"
	}
	return [...]string{"fail", "pass", "unsure"}[eval(t, v.root, 0)]
}
