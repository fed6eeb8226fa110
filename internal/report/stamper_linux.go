package report

import "syscall"

// childAttr: the stamping child is killed when this process dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// limitSelf bounds the stamping child's address space to mem bytes and its
// CPU time to cpu seconds: then the kernel sends SIGXCPU (the Go runtime
// dies of it), and SIGKILL a second later.
func limitSelf(mem, cpu uint64) error {
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: mem, Max: mem}); err != nil {
		return err
	}
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu + 1})
}
