// Command dbshape prints an SQLite database's shape, one line per table:
// its name and its columns, sorted, so scripts/agents-latest can show how
// a newer OpenCode's opencode.db differs from the pinned one's.
package main

import (
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"

	_ "modernc.org/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dbshape DATABASE")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "dbshape: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func run(path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		tables = append(tables, n)
	}
	rows.Close()
	for _, t := range tables {
		cols, err := db.Query(`SELECT name FROM pragma_table_info(?)`, t)
		if err != nil {
			return err
		}
		var names []string
		for cols.Next() {
			var n string
			if err := cols.Scan(&n); err != nil {
				cols.Close()
				return err
			}
			names = append(names, n)
		}
		cols.Close()
		sort.Strings(names)
		fmt.Printf("%s: %s\n", t, strings.Join(names, ", "))
	}
	return nil
}
