package command

import "testing"

func TestVersionSuffix(t *testing.T) {
	for v, want := range map[string]string{
		"":        "",
		"3":       " v3",
		"2":       " v2",
		"1.1.34":  " v1.1.34",
		"v1.16.0": " v1.16.0", // OpenCode 1.16 spells its version with the v
	} {
		if got := versionSuffix(v); got != want {
			t.Errorf("versionSuffix(%q) = %q, want %q", v, got, want)
		}
	}
}
