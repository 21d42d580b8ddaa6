package command

import (
	"fmt"

	"github.com/sesstool/sesstool/schema"
)

// SchemaList prints every embedded schema name.
func SchemaList(env *Env) error {
	for _, n := range schema.List() {
		fmt.Fprintln(env.Stdout, n)
	}
	return nil
}

// SchemaShow prints one schema file.
func SchemaShow(env *Env, name string) error {
	b, err := schema.Read(name)
	if err != nil {
		return Usage("%v", err)
	}
	_, err = env.Stdout.Write(b)
	return IO(err)
}

// SchemaDump writes every schema file under dir.
func SchemaDump(env *Env, dir string) error {
	if err := schema.Dump(dir); err != nil {
		return IO(err)
	}
	fmt.Fprintf(env.Stderr, "wrote %d schemas to %s\n", len(schema.List()), dir)
	return nil
}
