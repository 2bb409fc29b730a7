import Foundation
@testable import PhotoBrowser
import PhotoImaging
import Testing
@testable import TerminalUI

/// The image queue's rules: what a newer frame takes back, and what must finish once begun.
struct WireQueueTests {
    private func key(_ photo: Int) -> ImageLayer.Key { ImageLayer.Key(photoID: photo, box: PixelSize(width: 80, height: 60)) }
    private func unit(_ text: String, _ kind: WireUnit.Kind) -> WireUnit { WireUnit(bytes: Array(text.utf8), kind: kind) }
    private func kitty(_ photo: Int, chunks: Int = 2) -> WireJob {
        WireJob(image: key(photo), units: (0..<chunks).map { unit("T\(photo).\($0)", .transmit) } + [unit("P\(photo)", .place)], placement: nil)
    }
    private func strips(_ photo: Int) -> WireJob {
        WireJob(image: key(photo), units: [unit("S\(photo).0", .place), unit("S\(photo).1", .place)], placement: nil)
    }
    private func drain(_ queue: inout WireQueue) -> [String] {
        var written: [String] = []
        while let next = queue.take() { written.append(String(decoding: next.unit.bytes, as: UTF8.self)) }
        return written
    }

    @Test func anImageNoLongerWantedBeforeItsFirstByteIsNeverWritten() {
        var queue = WireQueue()
        queue.append([kitty(1), .control(Array("H".utf8)), kitty(2), strips(3)])
        let taken = queue.supersede(keeping: [key(2)])
        #expect(taken == Superseded(notShown: [key(1), key(3)], notSent: [key(1)]))
        #expect(drain(&queue) == ["H", "T2.0", "T2.1", "P2"], "housekeeping always goes; photo 2 is still wanted")
    }

    @Test func aKittyTransmissionBegunFinishesButIsNotPlaced() throws {
        var queue = WireQueue()
        queue.append([kitty(1, chunks: 3), kitty(2)])
        let taken1 = queue.take()
        let first = try #require(taken1)
        #expect(first.unit.kind == .transmit && first.ended == nil)
        let taken = queue.supersede(keeping: [key(2)])
        #expect(taken == Superseded(notShown: [key(1)], notSent: []), "the terminal will have photo 1's pixels, not show them")
        #expect(drain(&queue) == ["T1.1", "T1.2", "T2.0", "T2.1", "P2"])
    }

    @Test func stripsAlreadyDrawnStayShownForTheFrameToPaintOver() throws {
        var queue = WireQueue()
        queue.append([strips(1)])
        let taken1 = queue.take()
        _ = try #require(taken1)
        let taken = queue.supersede(keeping: [])
        #expect(taken == Superseded(), "part of photo 1 is on screen: the frame repaints its cells")
        #expect(queue.isEmpty && !queue.begun)
    }

    @Test func afterAClearNothingWaitingIsKept() {
        var queue = WireQueue()
        queue.append([kitty(1), strips(2)])
        let taken = queue.supersede(keeping: nil)
        #expect(taken == Superseded(notShown: [key(1), key(2)], notSent: [key(1)]))
        #expect(queue.isEmpty)
    }
}

/// The window: learned from the terminal's answers, never more in flight than it allows.
struct WireWindowTests {
    private let start = ContinuousClock.now

    @Test func somethingMayAlwaysGoWhenNothingIsInFlightAndNoMoreThanTheWindowOtherwise() {
        var window = WireWindow()
        #expect(window.allows(10 << 20), "an empty pipe takes even one unit larger than the window")
        let small = window.wrote(1000, endsImage: false)
        let segment = window.wrote(WireWindow.segment, endsImage: false)
        #expect(!small && segment, "a query after every segment")
        window.queried(at: start)
        #expect(window.inFlight == WireWindow.segment + 1000)
        #expect(window.allows(WireWindow.initialWindow - window.inFlight) && !window.allows(WireWindow.initialWindow))
        let ends = window.wrote(10, endsImage: true)
        #expect(ends, "and after every image")
    }

    @Test func theWindowIsWhatTheLinkCarriesInARoundTripAndFiftyMilliseconds() {
        // A link of 2.5 MB/s and 60 ms: one segment on an empty pipe, then four queued behind it.
        var window = WireWindow()
        let segment = WireWindow.segment
        let perSegment = Double(segment) / 2.5e6
        _ = window.wrote(segment, endsImage: false)
        window.queried(at: start)
        for index in 1...4 {
            _ = window.wrote(segment, endsImage: false)
            window.queried(at: start + .milliseconds(index))
        }
        for index in 0...4 {
            window.answered(at: start + .milliseconds(60) + .seconds(perSegment * Double(index + 1)))
        }
        let roundTrip = window.roundTrip
        #expect(roundTrip.map { $0 >= .milliseconds(60) && $0 < .milliseconds(75) } ?? false, "\(window.summary)")
        let rate = window.rate ?? 0
        #expect(abs(rate - 2.5e6) / 2.5e6 < 0.05, "\(window.summary)")
        let expected = 2.5e6 * ((roundTrip ?? .zero) + .milliseconds(50)).seconds
        #expect(abs(Double(window.window) - expected) / expected < 0.06, "\(window.summary)")
        #expect(window.inFlight == 0 && !window.isAwaitingAnswers)
    }

    @Test func aQueryNeverAnsweredStopsHoldingTheWindow() {
        var window = WireWindow()
        _ = window.wrote(WireWindow.segment, endsImage: true)
        window.queried(at: start)
        window.expire(at: start + .seconds(1))
        #expect(window.isAwaitingAnswers, "a second is not long enough to give up")
        window.expire(at: start + .seconds(2))
        #expect(!window.isAwaitingAnswers && window.lost == 1 && window.inFlight == 0)
    }
}

/// The writer against a terminal of its own: a pipe read at a set rate, DA1 answered after a round trip.
struct TerminalWireTests {
    /// Reads the pipe at `rate` bytes a second, answers each DA1 after `roundTrip`, and keeps every byte.
    private final class SlowTerminal: @unchecked Sendable {
        // @unchecked: `bytes` and `peak` are guarded by `lock`; the rest is set before the threads start.
        let read: Int32
        let write: Int32
        let lock = NSLock()
        var bytes: [UInt8] = []
        /// The most bytes written and not yet read by this terminal, sampled at each read.
        var answered = 0
        var wire: TerminalWire?

        init() {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            (read, write) = (ends[0], ends[1])
            // A small pipe, as a pty's: bytes wait in the writer, where the window can see them.
            _ = fcntl(write, 1031, 16 << 10)  // F_SETPIPE_SZ
        }

        func start(rate: Double, roundTrip: Duration) {
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                var matched = 0
                while true {
                    let count = Foundation.read(read, &buffer, buffer.count)
                    guard count > 0 else { return }
                    lock.lock()
                    bytes += buffer[0..<count]
                    lock.unlock()
                    for byte in buffer[0..<count] {
                        matched = byte == Array("\u{1B}[c".utf8)[matched] ? matched + 1 : (byte == 0x1B ? 1 : 0)
                        if matched == 3 {
                            matched = 0
                            let wire = wire
                            DispatchQueue.global().asyncAfter(deadline: .now() + roundTrip.seconds) { wire?.answered() }
                        }
                    }
                    usleep(UInt32(Double(count) / rate * 1e6))
                }
            }
            thread.start()
        }

        var received: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private func key(_ photo: Int) -> ImageLayer.Key { ImageLayer.Key(photoID: photo, box: PixelSize(width: 80, height: 60)) }

    /// kitty-like jobs: `chunks` transmit units of 4 KB of one letter, then a placement.
    private func job(_ photo: Int, letter: Character, chunks: Int) -> WireJob {
        let chunk = WireUnit(bytes: Array(repeating: UInt8(ascii: letter.unicodeScalars.first!), count: 4096), kind: .transmit)
        return WireJob(image: key(photo), units: Array(repeating: chunk, count: chunks) + [WireUnit(bytes: Array("<P\(photo)>".utf8), kind: .place)],
                       placement: nil)
    }

    @Test func textGoesBetweenUnitsAndASupersededImageIsNeverWritten() async throws {
        let terminal = SlowTerminal()
        let wire = TerminalWire(descriptor: terminal.write, roundTrip: nil) { _, _ in }
        terminal.wire = wire
        terminal.start(rate: 4e6, roundTrip: .milliseconds(20))
        wire.enqueue([job(1, letter: "a", chunks: 100), job(2, letter: "b", chunks: 100)])
        try await Task.sleep(for: .milliseconds(30))
        // The cursor moved on: photo 2 is no longer wanted, photo 1's transmission goes on, unplaced.
        let taken = wire.supersede(keeping: [])
        #expect(taken.notShown.contains(key(1)) && taken.notShown.contains(key(2)) && taken.notSent == [key(2)])
        for frame in 0..<5 {
            wire.withWire { TerminalDriver.writeAll(Array("[text \(frame)]".utf8), to: terminal.write) }
            try await Task.sleep(for: .milliseconds(10))
        }
        wire.enqueue([job(3, letter: "c", chunks: 3)])
        let deadline = ContinuousClock.now + .seconds(20)
        while !terminal.received.contains("<P3>"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        wire.stop()
        close(terminal.write)
        let received = terminal.received
        #expect(received.contains("<P3>"))
        #expect(!received.contains("b") && !received.contains("<P1>") && !received.contains("<P2>"))
        #expect(received.filter { $0 == "a" }.count == 100 * 4096, "photo 1's transmission, once begun, is sent whole")
        // Every text frame lands whole, between units: after a unit's last byte, before the next's first.
        let units = try Regex("(?:a{4096}|c{4096}|\u{1B}\\[c|<P3>|\\[text \\d\\])*")
        #expect(received.wholeMatch(of: units) != nil, "text inside a unit")
        for frame in 0..<5 { #expect(received.contains("[text \(frame)]")) }
    }

    @Test func neverMoreImageBytesUnansweredThanTheWindowAndOneUnit() async throws {
        let terminal = SlowTerminal()
        let wire = TerminalWire(descriptor: terminal.write, roundTrip: nil) { _, _ in }
        terminal.wire = wire
        terminal.start(rate: 2e6, roundTrip: .milliseconds(40))
        wire.enqueue([job(1, letter: "a", chunks: 400)])
        var peak = 0, widest = 0, window = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while !terminal.received.contains("<P1>"), ContinuousClock.now < deadline {
            let link = wire.link
            peak = max(peak, link.inFlight)
            widest = max(widest, link.window)
            window = link.window
            try await Task.sleep(for: .milliseconds(5))
        }
        wire.stop()
        close(terminal.write)
        #expect(terminal.received.contains("<P1>"))
        #expect(peak > 0 && peak <= widest + 4096, "\(peak) bytes in flight, the window at most \(widest)")
        let link = wire.link
        #expect(link.rate.map { $0 > 1e6 && $0 < 4e6 } ?? false, "the rate measured: \(link.summary)")
        #expect(window < WireWindow.initialWindow, "the window shrank to the link: \(link.summary)")
    }
}
