import Foundation
import TerminalUI

/// Line output that reaches a pipe at once, not when a buffer fills.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Waits for SIGINT, SIGTERM or SIGHUP, so the server can stop cleanly; a second one ends it at once.
enum ShutdownSignals {
    static func wait() async {
        let signals = SignalEvents([SIGINT, SIGTERM, SIGHUP])
        for await _ in signals.signals { break }
        signals.stop()
    }
}
