package command

import (
	"fmt"

	"github.com/sesstool/sesstool/schema"
)

// SchemaList prints every embedded schema name.
func SchemaList(env *Env) error {
	for _, n := range schema.List() {
		if _, err := fmt.Fprintln(env.Stdout, n); err != nil {
			return IO(err)
		}
	}
	return nil
}

// SchemaShow prints one schema file.
func SchemaShow(env *Env, name string) error {
	b, err := schema.Read(name)
	if err != nil {
		return Usage("%v", err)
	}
	if _, err = env.Stdout.Write(b); err != nil {
		return IO(err)
	}
	return nil
}

// SchemaDump writes every schema file under dir.
func SchemaDump(env *Env, dir string) error {
	if err := schema.Dump(dir); err != nil {
		return IO(err)
	}
	fmt.Fprintf(env.Stderr, "wrote %d schemas to %s\n", len(schema.List()), dir)
	return nil
}
