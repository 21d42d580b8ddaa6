//go:build unix

package cleanup

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// OnSignals removes what is tracked when the process is told to stop, then
// dies of the same signal, so the exit status says what happened (a shell
// sees 128+N). A write to a closed pipe then fails with EPIPE first, and
// the signal follows.
func OnSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		s := (<-c).(syscall.Signal)
		removeAll()
		signal.Reset(s)
		syscall.Kill(os.Getpid(), s)
		// Go ignores a SIGPIPE that no write on standard output or error
		// raised, as this one now is: end as a shell would report it.
		time.Sleep(100 * time.Millisecond)
		os.Exit(128 + int(s))
	}()
}
