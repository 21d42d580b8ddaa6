package format

import (
	"path/filepath"
	"testing"
)

func TestInHome(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	if got, want := InHome(".ash", "sessions"), filepath.Join("/home/u", ".ash", "sessions"); got != want {
		t.Errorf("InHome = %q, want %q", got, want)
	}
	if got := InHome(); got != "/home/u" {
		t.Errorf("InHome() = %q, want the home directory", got)
	}
	// With no home directory, the path is spelled from ~, never relative to
	// the working directory.
	t.Setenv("HOME", "")
	if got, want := InHome(".config", "agent", "sessions"), filepath.Join("~", ".config", "agent", "sessions"); got != want {
		t.Errorf("InHome without HOME = %q, want %q", got, want)
	}
}

// A store the environment names wins; without it, the one under home.
func TestEnvOrHome(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("SESSTOOL_TEST_STORE", "")
	if got, want := EnvOrHome("SESSTOOL_TEST_STORE", ".codex"), filepath.Join("/home/u", ".codex"); got != want {
		t.Errorf("EnvOrHome unset = %q, want %q", got, want)
	}
	t.Setenv("SESSTOOL_TEST_STORE", "/data/store")
	if got := EnvOrHome("SESSTOOL_TEST_STORE", ".codex"); got != "/data/store" {
		t.Errorf("EnvOrHome set = %q, want /data/store", got)
	}
}
