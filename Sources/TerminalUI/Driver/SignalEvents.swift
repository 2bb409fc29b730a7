import Dispatch
import Foundation

/// Signals as an async sequence: resizes, and requests to stop. Each is ignored by default first, so
/// that ncurses leaves them to us and a signal never kills the process before the terminal is restored.
final class SignalEvents {
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(_ numbers: [Int32]) {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.signals = signals
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    func stop() {
        sources.forEach { $0.cancel() }
    }
}
