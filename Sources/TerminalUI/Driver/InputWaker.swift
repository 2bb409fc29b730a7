import Dispatch
import Foundation

/// Waits for input on a thread of its own, so neither the main actor nor the cooperative pool ever
/// blocks on the terminal. It only polls the descriptor; the main actor then reads the keys through
/// ncurses without blocking, and says when it has, before the thread polls again.
final class InputWaker: Sendable {
    /// Yields when input is waiting.
    let ready: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let drained = DispatchSemaphore(value: 0)
    private let stopPipe: (read: Int32, write: Int32)

    init() {
        (ready, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        var fds: [Int32] = [-1, -1]
        pipe(&fds)
        stopPipe = (fds[0], fds[1])
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "photopick input"
        thread.start()
    }

    private func run() {
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let result = poll(&descriptors, 2, -1)
            if result < 0 && errno == EINTR { continue }
            if result < 0 || descriptors[1].revents != 0 { break }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal went away (a hang-up reports POLLIN too, forever); SIGHUP ends the program.
                continuation.yield()
                break
            }
            continuation.yield()
            drained.wait()
        }
        continuation.finish()
        close(stopPipe.read)
    }

    /// The main actor has read everything that was waiting.
    func inputDrained() {
        drained.signal()
    }

    func stop() {
        var byte: UInt8 = 0
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
        drained.signal()
    }
}
