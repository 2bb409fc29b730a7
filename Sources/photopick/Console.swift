import Dispatch
import Foundation

/// Line output that reaches a pipe at once, not when a buffer fills.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Waits for SIGINT, SIGTERM or SIGHUP, so the server can stop cleanly.
enum ShutdownSignals {
    static func wait() async {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}
