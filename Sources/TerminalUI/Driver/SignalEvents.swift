import Dispatch
import Foundation

/// Signals as an async sequence: resizes, and requests to stop, so that a signal never kills the
/// process before the terminal is restored. The default action is set to ignore first, as libdispatch
/// requires; its handler then takes over from ncurses' own.
public final class SignalEvents {
    /// Each signal's number as it arrives.
    public let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]
    private let numbers: [Int32]

    /// Starts watching `numbers`.
    public init(_ numbers: [Int32]) {
        self.numbers = numbers
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

    /// Stops watching and gives the signals their default actions back: once the terminal is restored,
    /// a second SIGTERM during shutdown ends the process as usual.
    public func stop() {
        sources.forEach { $0.cancel() }
        for number in numbers where number != SIGWINCH { signal(number, SIG_DFL) }
    }
}
