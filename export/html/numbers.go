package html

import (
	"strconv"
	"strings"
)

// Thousands writes n with a comma between groups of three digits
// (54,693,675): token counts run to tens of millions and are unreadable as
// bare digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Money is a cost in dollars: cents from a dollar up, four decimals below
// it, where single turns cost fractions of a cent.
func Money(c float64) string {
	if c >= 1 || c <= -1 {
		whole := int64(c)
		cents := strconv.FormatFloat(c-float64(whole), 'f', 2, 64)
		if cents == "1.00" { // 0.995 rounds up
			whole, cents = whole+1, "0.00"
		}
		return "$" + Thousands(whole) + cents[1:]
	}
	return "$" + strconv.FormatFloat(c, 'f', 4, 64)
}

// Plural is "1 session", "2 sessions", "1,024 branches".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "s") {
		return Thousands(int64(n)) + " " + noun + "es"
	}
	return Thousands(int64(n)) + " " + noun + "s"
}
