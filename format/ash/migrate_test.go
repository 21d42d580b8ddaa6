package ash

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
)

const v1Sample = "testdata/generated-v1/sessions/telegram_-542863895_77"

// copyDir copies a sample session into a fresh store.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	store := t.TempDir()
	dst := filepath.Join(store, filepath.Base(src))
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return dst
}

func TestMigrateV1(t *testing.T) {
	src := copyDir(t, v1Sample)
	before := readDir(t, src)
	res, err := (Format{}).Migrate(src, "2", format.MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	store := filepath.Dir(src)
	want := filepath.Join(store, "telegram_-542863895_958786881_77")
	if !res.Changed || res.From != "1" || res.To != "2" || res.Written != want || res.Backup != src+".bak" {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Errorf("old directory still there: %v", err)
	}
	// The backup is the untouched original.
	bak := readDir(t, src+".bak")
	for name, b := range before {
		if string(bak[name]) != string(b) {
			t.Errorf("backup %s changed", name)
		}
	}
	// The result passes the v2 rules, directory name included.
	rep := &report.Report{}
	if err := (Format{}).Validate(want, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("migrated session has findings: %v", rep.Findings())
	}
	got := readDir(t, want)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		golden.Assert(t, "migrate/"+strings.ReplaceAll(n, "/", "_"), got[n])
	}
	// Migrating again is a no-op.
	res, err = (Format{}).Migrate(want, "2", format.MigrateOptions{})
	if err != nil || res.Changed {
		t.Errorf("second migration: %+v, %v", res, err)
	}
}

func TestMigrateNoBackupAndDryRun(t *testing.T) {
	src := copyDir(t, v1Sample)
	res, err := (Format{}).Migrate(src, "", format.MigrateOptions{DryRun: true})
	if err != nil || !res.Changed || res.Written != "" || len(res.Changes) != 4 {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(src), "telegram_-542863895_958786881_77")); !os.IsNotExist(err) {
		t.Fatal("dry run wrote something")
	}
	if _, err := (Format{}).Migrate(src, "2", format.MigrateOptions{NoBackup: true}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Dir(src))
	if len(ents) != 1 || ents[0].Name() != "telegram_-542863895_958786881_77" {
		t.Errorf("store holds %v, want only the migrated session", ents)
	}
}

func TestMigrateRefusesInvalid(t *testing.T) {
	src := copyDir(t, v1Sample)
	hist := filepath.Join(src, HistoryFile)
	b, _ := os.ReadFile(hist)
	if err := os.WriteFile(hist, []byte(strings.Replace(string(b), "Checking.", "Changed.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (Format{}).Migrate(src, "2", format.MigrateOptions{})
	var inv *format.InvalidError
	if !errors.As(err, &inv) || inv.Findings[0].Rule != "history-mismatch" {
		t.Fatalf("want a refusal for history-mismatch, got %v", err)
	}
	ents, _ := os.ReadDir(filepath.Dir(src))
	if len(ents) != 1 {
		t.Errorf("a refused migration left %d entries in the store", len(ents))
	}
}

func TestMigrateBadTarget(t *testing.T) {
	src := copyDir(t, v1Sample)
	if _, err := (Format{}).Migrate(src, "7", format.MigrateOptions{}); err == nil {
		t.Error("migrating to version 7 succeeded")
	}
	if _, err := (Format{}).Migrate(src, "2", format.MigrateOptions{Out: "-"}); err == nil {
		t.Error("migrating a directory to stdout succeeded")
	}
}

// After a migration in place the store holds the backup <dir>.bak beside the
// new directory; the store's sessions, its detection and its validation
// leave the backup (and any hidden temporary directory) out.
func TestStoreLeavesBackupsOut(t *testing.T) {
	src := copyDir(t, v1Sample)
	store := filepath.Dir(src)
	if _, err := (Format{}).Migrate(src, "2", format.MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", src+".bak", filepath.Join(store, ".tmp-left-over")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	refs, err := (Format{}).Sessions(store)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 1 || filepath.Base(refs[0].Path) != "telegram_-542863895_958786881_77" {
		t.Errorf("sessions of the store: %v, want the migrated one only", refs)
	}
	rep := &report.Report{}
	if err := (Format{}).Validate(store, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings()) != 0 {
		t.Errorf("store after migration has findings: %v", rep.Findings())
	}
	// Only backups: not a store. Named itself, a backup is a session.
	bakOnly := t.TempDir()
	if err := os.Rename(src+".bak", filepath.Join(bakOnly, "x.bak")); err != nil {
		t.Fatal(err)
	}
	if (Format{}).Detect(bakOnly) {
		t.Errorf("a folder holding only a backup is detected as a store")
	}
	if !(Format{}).Detect(filepath.Join(bakOnly, "x.bak")) {
		t.Errorf("a backup named itself is not detected as a session")
	}
}

// A step down is refused as a step (the command's exit 2), with no path in
// the message (the command names it once), and nothing is written.
func TestMigrateDownRefused(t *testing.T) {
	src := copyDir(t, "testdata/generated-v2/sessions/cli")
	before := readDir(t, src)
	_, err := (Format{}).Migrate(src, "1", format.MigrateOptions{})
	if !errors.Is(err, format.ErrRefusedStep) {
		t.Fatalf("err = %v, want a refused step", err)
	}
	if strings.Contains(err.Error(), src) {
		t.Errorf("the refusal names the path itself: %v", err)
	}
	after := readDir(t, src)
	if len(after) != len(before) {
		t.Errorf("session changed: %d files, had %d", len(after), len(before))
	}
	if _, err := os.Stat(src + ".bak"); !os.IsNotExist(err) {
		t.Errorf("a backup was made: %v", err)
	}
}
