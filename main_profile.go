package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/sesstool/sesstool/atomicfile"
)

// profile writes a CPU profile of the whole command to $SESSTOOL_CPUPROFILE,
// for measuring real commands on real files (docs/performance.md); the
// returned function stops it. Without the variable it does nothing.
func profile() func() {
	path := os.Getenv("SESSTOOL_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := atomicfile.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sesstool: cpu profile %s: %v\n", path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
