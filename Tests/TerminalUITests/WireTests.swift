import PhotoPickTestSupport
import Foundation
@testable import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import Testing
@testable import TerminalUI
import PhotoPickSettings

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
    private let start = Duration.seconds(100)

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
        let expected = 2.5e6 * ((roundTrip ?? .zero) + .milliseconds(50)).timeInterval
        #expect(abs(Double(window.window) - expected) / expected < 0.06, "\(window.summary)")
        #expect(window.inFlight == 0 && !window.isAwaitingAnswers)
        // A unit larger than what is left of the window still goes while less than a round trip's worth is
        // in flight: the link never runs dry waiting for room.
        _ = window.wrote(100 << 10, endsImage: true)
        window.queried(at: start + .seconds(1))
        let bigUnit = window.window - (100 << 10) + 1
        #expect(window.allows(bigUnit), "100 KB in flight is less than the 150 KB a round trip carries")
        _ = window.wrote(100 << 10, endsImage: true)
        window.queried(at: start + .seconds(1))
        #expect(!window.allows(bigUnit) && window.allows(window.window - window.inFlight))
    }

    @Test func beforeAnyRateIsLearnedTheRoundTripSaysWhetherTheTerminalIsAcrossANetwork() {
        #expect(!WireWindow(roundTrip: .milliseconds(3)).isSlow, "a terminal on this machine")
        #expect(WireWindow(roundTrip: .milliseconds(60)).isSlow, "one over SSH")
        #expect(!WireWindow().isSlow, "nothing known: whole images")
        var fast = WireWindow(roundTrip: .milliseconds(40))
        fast.assume(rate: 100e6)
        #expect(!fast.isSlow, "once measured, the rate decides: 5 ms of bytes and 40 ms of round trip")
    }

    @Test func bytesWrittenSinceTheLastQueryThatHoldBackAUnitAreAskedAbout() {
        // The least window (64 KB) and a strip just under a segment: no query followed it, and the next
        // strip does not fit beside it, so without asking now no answer would ever make room.
        var window = WireWindow(roundTrip: .zero)
        window.assume(rate: 1e6)
        #expect(window.window == WireWindow.leastWindow)
        let asked = window.wrote(31_667, endsImage: false)
        #expect(!asked && !window.isAwaitingAnswers)
        #expect(!window.allows(34_000) && window.mustAsk(before: 34_000))
        #expect(!window.mustAsk(before: 20_000), "a strip that fits goes without a query")
        window.queried(at: start)
        #expect(!window.mustAsk(before: 34_000), "once asked, the answer will make room")
        window.answered(at: start + .milliseconds(30))
        #expect(window.allows(34_000))
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

/// The writer against a terminal of its own: a pipe it reads when told to, answering each DA1 at once.
/// Nothing here depends on timing: the reader starts paused, so the writer is held mid-image.
struct TerminalWireTests {
    /// Reads the pipe once resumed, answers each DA1, and keeps every byte.
    private final class PipeTerminal: @unchecked Sendable {
        // @unchecked: `bytes` and `paused` are guarded by `lock`; the rest is set before the thread starts.
        let read: Int32
        let write: Int32
        let lock = NSCondition()
        var bytes: [UInt8] = []
        var paused = true
        var wire: TerminalWire?

        init() {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            (read, write) = (ends[0], ends[1])
            // A small pipe, as a pty's: the writer blocks in it while the terminal does not read.
            _ = fcntl(write, 1031, 16 << 10)  // F_SETPIPE_SZ
        }

        func start() {
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                let query = Array("\u{1B}[c".utf8)
                var matched = 0
                while true {
                    lock.lock()
                    while paused { lock.wait() }
                    lock.unlock()
                    let count = Foundation.read(read, &buffer, buffer.count)
                    guard count > 0 else { return }
                    lock.lock()
                    bytes += buffer[0..<count]
                    lock.broadcast()
                    lock.unlock()
                    for byte in buffer[0..<count] {
                        matched = byte == query[matched] ? matched + 1 : (byte == 0x1B ? 1 : 0)
                        if matched == 3 {
                            matched = 0
                            wire?.answered()
                        }
                    }
                }
            }
            thread.start()
        }

        func resume() {
            lock.lock()
            paused = false
            lock.broadcast()
            lock.unlock()
        }

        var received: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Blocks until `text` has been read, woken by each read (never on a timer). Each wake looks only
        /// at what came since the last one (and the pattern's length before it).
        func waitFor(_ text: String) {
            let pattern = Array(text.utf8)
            var from = 0
            lock.lock()
            while true {
                let start = max(0, from - pattern.count)
                if bytes.count >= pattern.count, (start...(bytes.count - pattern.count)).contains(where: { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }) { break }
                from = bytes.count
                lock.wait()
            }
            lock.unlock()
        }
    }

    private func key(_ photo: Int) -> ImageLayer.Key { ImageLayer.Key(photoID: photo, box: PixelSize(width: 80, height: 60)) }

    /// kitty-like jobs: `chunks` transmit units of 4 KB of one letter, then a placement.
    private func job(_ photo: Int, letter: Character, chunks: Int) -> WireJob {
        let chunk = WireUnit(bytes: Array(repeating: UInt8(ascii: letter.unicodeScalars.first!), count: 4096), kind: .transmit)
        return WireJob(image: key(photo), units: Array(repeating: chunk, count: chunks) + [WireUnit(bytes: Array("<P\(photo)>".utf8), kind: .place)],
                       placement: nil)
    }

    @Test func textGoesBetweenUnitsAndASupersededImageIsNeverWritten() throws {
        let terminal = PipeTerminal()
        let wire = TerminalWire(descriptor: terminal.write, roundTrip: nil, clock: .continuous) { _, _, _ in }
        terminal.wire = wire
        terminal.start()
        wire.enqueue([job(1, letter: "a", chunks: 100), job(2, letter: "b", chunks: 100)])
        // The terminal reads nothing yet: photo 1's transmission has begun and cannot end.
        wire.waitUntil { $0.inFlight > 0 }
        // The cursor moved on: photo 2 is no longer wanted, photo 1's transmission goes on, unplaced.
        let taken = wire.supersede(keeping: [])
        #expect(taken == Superseded(notShown: [key(1), key(2)], notSent: [key(2)]))
        terminal.resume()
        for frame in 0..<5 { wire.withWire { TerminalDriver.writeAll(Array("[text \(frame)]".utf8), to: terminal.write) } }
        wire.enqueue([job(3, letter: "c", chunks: 3)])
        terminal.waitFor("<P3>")
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

    @Test func textThatMustFollowItsImagesGoesOnlyOnceEveryQueuedImageIsOut() async {
        let terminal = PipeTerminal()
        let wire = TerminalWire(descriptor: terminal.write, roundTrip: nil, clock: .continuous) { _, _, _ in }
        terminal.wire = wire
        terminal.start()
        let freed = Gate()
        wire.whenFree { Task { await freed.open() } }
        wire.enqueue([job(1, letter: "a", chunks: 20), job(2, letter: "b", chunks: 20)])
        // Unread, the writer is still on photo 1: the text waits, and no unit of it is written.
        wire.waitUntil { $0.inFlight > 0 }
        #expect(!wire.ifIdle { TerminalDriver.writeAll(Array("[cells]".utf8), to: terminal.write) })
        terminal.resume()
        await freed.wait()
        // Woken once both images are out: now it goes, after them.
        #expect(wire.ifIdle { TerminalDriver.writeAll(Array("[cells]".utf8), to: terminal.write) })
        terminal.waitFor("[cells]")
        wire.stop()
        close(terminal.write)
        let received = terminal.received
        let cells = received.range(of: "[cells]")!, last = received.range(of: "<P2>")!
        #expect(last.upperBound <= cells.lowerBound, "the text came after the images it shows")
    }

    @Test func imageDataWaitsForTheAnswersOnceTheWindowIsFull() {
        let terminal = PipeTerminal()
        let wire = TerminalWire(descriptor: terminal.write, roundTrip: nil, clock: .continuous) { _, _, _ in }
        terminal.wire = wire
        terminal.start()
        wire.enqueue([job(1, letter: "a", chunks: 400)])
        // Unread, the writer fills the pipe and blocks; the window holds what was written and not answered.
        wire.waitUntil { $0.inFlight > 0 }
        terminal.resume()
        terminal.waitFor("<P1>")
        let peak = wire.peakInFlight
        wire.stop()
        close(terminal.write)
        #expect(peak.bytes > WireWindow.segment, "several segments went before their answers came")
        #expect(peak.bytes <= peak.window + 4096, "\(peak.bytes) bytes in flight against a window of \(peak.window)")
        #expect(terminal.received.components(separatedBy: "\u{1B}[c").count - 1 >= 400 * 4096 / WireWindow.segment, "a query after every segment")
    }
}

/// Over a slow link: a reduced image first, the whole one once the cursor rests.
struct ProgressiveImageTests {
    private func placement(_ photo: Int) -> ImagePlacement {
        ImagePlacement(photoID: photo, box: PixelSize(width: 80, height: 60), rect: Rect(x: 2, y: 3, width: 10, height: 4),
                       payload: EncodedImage(size: PixelSize(width: 80, height: 60), bytes: Array("WHOLE\(photo)".utf8), isPNG: true,
                                             reduced: ReducedImage(size: PixelSize(width: 20, height: 15), bytes: Array("SMALL\(photo)".utf8), isPNG: true)))
    }
    private func text(_ units: [WireUnit]) -> String { String(decoding: units.flatMap(\.bytes), as: UTF8.self) }

    @Test func kittySendsTheReducedImageScaledToTheCellsThenTheWholeOneWhichFreesIt() {
        var layer = ImageLayer(mode: .kitty)
        let plan = layer.plan([placement(1)], screenCleared: true, height: 30, progressive: true)
        #expect(plan.jobs.map(\.stage) == [.reduced, .wholeAfterReduced])
        #expect(text(plan.jobs[0].units) == "\u{1B}_Ga=t,f=100,i=1,q=2,m=0;SMALL1\u{1B}\\\u{1B}7\u{1B}[4;3H\u{1B}_Ga=p,i=1,p=1,c=10,r=4,C=1,q=2\u{1B}\\\u{1B}8")
        #expect(text(plan.jobs[1].units) == "\u{1B}_Ga=t,f=100,i=2,q=2,m=0;WHOLE1\u{1B}\\\u{1B}7\u{1B}[4;3H\u{1B}_Ga=p,i=2,p=1,C=1,q=2\u{1B}\\\u{1B}8\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\")
        #expect(plan.jobs[0].rest == .zero && plan.jobs[1].rest == ImageLayer.rest)
        // On a fast link, or once the whole image is in the terminal, no reduced one.
        var fast = ImageLayer(mode: .kitty)
        #expect(fast.plan([placement(1)], screenCleared: true, height: 30).jobs.map(\.stage) == [.whole])
    }

    @Test func aKeyBeforeTheWholeImageBeginsKeepsTheReducedOneShownForTheFrameToHide() {
        var layer = ImageLayer(mode: .kitty)
        var queue = WireQueue()
        queue.append(layer.plan([placement(1)], screenCleared: true, height: 30, progressive: true).jobs)
        // The reduced image goes out; the whole one rests.
        while queue.jobs.first?.stage == .reduced { _ = queue.take() }
        let taken = queue.supersede(keeping: [ImageLayer.Key(placement(2))])
        #expect(taken == Superseded(notShown: [], notSent: [ImageLayer.Key(placement(1))]), "the reduced image is on screen")
        layer.forget(taken)
        let next = text(layer.plan([placement(2)], screenCleared: false, height: 30, progressive: true).jobs.flatMap(\.units))
        #expect(next.hasPrefix("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"), "the reduced image of photo 1 is freed: \(next)")
        #expect(!next.contains("i=2,"), "photo 1's whole image was never sent, so nothing hides it")
    }

    @Test func aKeyBeforeAnyOfItLeavesNothingToHide() {
        var layer = ImageLayer(mode: .iterm)
        var queue = WireQueue()
        queue.append(layer.plan([placement(1)], screenCleared: true, height: 30, progressive: true).jobs)
        let taken = queue.supersede(keeping: [])
        #expect(taken == Superseded(notShown: [ImageLayer.Key(placement(1))], notSent: []))
        layer.forget(taken)
        #expect(layer.plan([], screenCleared: false, height: 30).repaint.isEmpty, "nothing of photo 1 reached the screen")
    }

    @Test func theWholeImageWaitsForTheCursorToRest() {
        var layer = ImageLayer(mode: .iterm)
        var queue = WireQueue()
        let start = Duration.seconds(100)
        queue.append(layer.plan([placement(1)], screenCleared: true, height: 30, progressive: true).jobs, at: start)
        #expect(queue.restsUntil(now: start) == nil, "the reduced image goes at once")
        _ = queue.take()
        let due = queue.restsUntil(now: start)
        #expect(due.map { $0 - start == ImageLayer.rest } ?? false)
        #expect(queue.restsUntil(now: start + ImageLayer.rest) == nil, "and goes once the cursor has rested")
    }
}

/// Sixel images in strips of whole bands, each complete with the palette where it begins.
struct SixelStripsTests {
    private let image = Array("\u{1B}P0;1;0q\"1;1;4;20#0;2;100;0;0#1;2;0;100;0#0~~~~$#1????-#0!4~-#1~~~~-#2;2;0;0;100#2~~~~\u{1B}\\".utf8)
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func eachStripCarriesThePaletteAndTheColourInUseWhereItBegins() {
        let strips = SixelStrips.cut(image, bands: 2).map { text($0.bytes(of: image)) }
        #expect(strips == [
            "\u{1B}P0;1;0q\"1;1;4;12#0;2;100;0;0#1;2;0;100;0#0~~~~$#1????-#0!4~\u{1B}\\",
            "\u{1B}P0;1;0q\"1;1;4;8#0;2;100;0;0#1;2;0;100;0#0#1~~~~-#2;2;0;0;100#2~~~~\u{1B}\\",
        ])
        #expect(SixelStrips.cut(image, bands: 4).isEmpty, "no more bands than a strip: the image whole")
        #expect(SixelStrips.cut(Array("SIXEL".utf8), bands: 2).isEmpty, "what cannot be read goes whole")
    }

    @Test func stripsEndOnACellsEdgeAndAreEachPlacedAtTheirRow() {
        #expect(ImageLayer.stripHeight(cellHeight: 17) == 102 && ImageLayer.stripHeight(cellHeight: 20) == 60)
        #expect(ImageLayer.stripHeight(cellHeight: 16) == 48 && ImageLayer.stripHeight(cellHeight: 0) == nil)
        // Cells of 3 pixels: a strip is 48 rows, 16 cells, and this image of 20 rows is one strip.
        var layer = ImageLayer(mode: .sixel, cell: PixelSize(width: 1, height: 3))
        let placement = ImagePlacement(photoID: 1, box: PixelSize(width: 4, height: 20), rect: Rect(x: 2, y: 3, width: 4, height: 7),
                                       payload: .sixel(image, size: PixelSize(width: 4, height: 20), cell: PixelSize(width: 1, height: 3)))
        #expect(layer.plan([placement], screenCleared: true, height: 30).jobs.first?.units.count == 1)
        let tall = Array(repeating: "#0~~~~-", count: 40).joined()
        let big = Array("\u{1B}P0;1;0q\"1;1;4;240#0;2;100;0;0\(tall)\u{1B}\\".utf8)
        var strips = ImageLayer(mode: .sixel, cell: PixelSize(width: 1, height: 3))
        let tallPlacement = ImagePlacement(photoID: 2, box: PixelSize(width: 4, height: 240), rect: Rect(x: 2, y: 3, width: 4, height: 80),
                                           payload: .sixel(big, size: PixelSize(width: 4, height: 240), cell: PixelSize(width: 1, height: 3)))
        let units = strips.plan([tallPlacement], screenCleared: true, height: 100).jobs.first?.units ?? []
        // 48 rows a strip (8 bands, 16 cells): 240 rows make five strips, at rows 3, 19, 35, 51 and 67,
        // cut when the image was made: each unit's body is a run of the image's own bytes.
        #expect(units.count == 5)
        #expect(units.allSatisfy { $0.body.count > 0 && big[$0.body.indices] == $0.body })
        #expect(EncodedImage.sixel(big, size: PixelSize(width: 4, height: 240), cell: nil).strips.isEmpty, "an assumed cell: whole")
        #expect(units.map { text($0.bytes) }.map { String($0.prefix(12)) }.prefix(3) == ["\u{1B}7\u{1B}[4;3H\u{1B}P0;", "\u{1B}7\u{1B}[20;3H\u{1B}P0", "\u{1B}7\u{1B}[36;3H\u{1B}P0"])
    }
}

extension WireQueue {
    /// Queues jobs at the writer's start: the tests of order and superseding take no time.
    mutating func append(_ jobs: [WireJob]) {
        append(jobs, at: .zero)
    }
}
