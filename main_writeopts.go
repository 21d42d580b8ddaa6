package main

import (
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/urfave/cli/v3"
)

// writeOptionFlags are convert's flags for the options layouts' writers
// take (--project, --truncate-messages): each layout declares its own
// (format.Traits.Options), so a new one needs no line here.
func writeOptionFlags() []cli.Flag {
	var fs []cli.Flag
	for _, o := range registry.WriteOptions() {
		if o.Switch {
			fs = append(fs, &cli.BoolFlag{Name: o.Name, Usage: o.Help()})
		} else {
			fs = append(fs, &cli.StringFlag{Name: o.Name, Usage: o.Help()})
		}
	}
	return fs
}

// writeOptionValues are the values of the write option flags given to c,
// by name; nil when none was.
func writeOptionValues(c *cli.Command) format.OptionValues {
	var v format.OptionValues
	for _, o := range registry.WriteOptions() {
		if !c.IsSet(o.Name) {
			continue
		}
		if v == nil {
			v = format.OptionValues{}
		}
		if o.Switch {
			v[o.Name] = strconv.FormatBool(c.Bool(o.Name))
		} else {
			v[o.Name] = c.String(o.Name)
		}
	}
	return v
}
