import Foundation

/// Stopping on Ctrl-Z as a shell's job: whether a shell waits to take the terminal back, and a stop
/// that cannot be left pending.
enum JobControl {
    /// Why Ctrl-Z cannot stop photopick here, or nil when it can. A process group that shares the
    /// session leader's has no shell above it in the session (tmux or a terminal running photopick
    /// itself, `ssh -t host photopick`, a shell without job control): the kernel drops the stop there,
    /// and nothing would bring the process back.
    static func whyNoStop() -> String? {
        getpgrp() == getsid(0)
            ? "ctrl-z cannot suspend: photopick was not started from a shell with job control; q quits"
            : nil
    }

    /// Stops the process with SIGTSTP's default action, returning once it is continued (`fg`). The
    /// signal goes to this thread with it unblocked here: the runtime's worker threads block it, and a
    /// stop sent to the process while every thread that could take it blocks it would stay pending
    /// and leave the app running with the screen torn down.
    static func stop() {
        signal(SIGTSTP, SIG_DFL)
        var tstp = sigset_t()
        var previous = sigset_t()
        sigemptyset(&tstp)
        sigaddset(&tstp, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &tstp, &previous)
        pthread_kill(pthread_self(), SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
