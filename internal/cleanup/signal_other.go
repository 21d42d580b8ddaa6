//go:build !unix

package cleanup

import (
	"os"
	"os/signal"
)

// OnSignals removes what is tracked on an interrupt, then exits.
func OnSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	go func() {
		<-c
		removeAll()
		os.Exit(130)
	}()
}
