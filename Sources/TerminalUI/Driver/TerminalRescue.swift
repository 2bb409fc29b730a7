import Foundation

// Written once before ncurses starts, then only read, by the main thread and by the crash handler; a
// signal handler cannot take a lock, so this is a plain global.
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var hasSavedModes = false

/// Puts the terminal back even when photopick crashes: the modes from before ncurses started are saved,
/// and a handler for fatal signals restores them and leaves the alternate screen before the process dies.
enum TerminalRescue {
    /// Leaves the alternate screen, shows the cursor, stops mouse reports and bracketed paste, resets attributes.
    private static let reset: StaticString = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"

    static func save() {
        // Initialised here, not lazily inside the signal handler, where that would not be safe.
        _ = reset.utf8CodeUnitCount
        guard tcgetattr(STDIN_FILENO, &savedModes) == 0 else { return }
        hasSavedModes = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(number) { number in
                if hasSavedModes { tcsetattr(STDIN_FILENO, TCSANOW, &savedModes) }
                TerminalRescue.reset.withUTF8Buffer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Restores the saved modes after `endwin`, in case anything changed them behind ncurses' back.
    static func restore() {
        guard hasSavedModes else { return }
        tcsetattr(STDIN_FILENO, TCSADRAIN, &savedModes)
    }
}
