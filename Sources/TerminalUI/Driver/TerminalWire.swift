import ExtrasBase64
import Foundation
import PhotoPickKit
import PhotoPickSettings

/// Everything written to the terminal goes through here: a frame's text at once, from the main actor,
/// and images unit by unit from a thread of its own, under the window the terminal's answers allow.
/// A frame's text waits for at most the unit being written, never for the images queued behind it,
/// and the main actor never waits for an image. Hand-written: no library paces escape sequences.
final class TerminalWire: @unchecked Sendable {
    // @unchecked: every `var` below is guarded by `state`, and the descriptor is written only while
    // holding `wire`; the compiler cannot see either lock.
    private let descriptor: Int32
    /// What the pacing and the waits for answers are timed by.
    private let clock: Timekeeper
    private let state = NSCondition()
    private let wire = NSLock()
    private var queue = WireQueue()
    private var window: WireWindow
    private var writing = false
    private var stopping = false
    private var finished = false
    private let onShown: @Sendable (ImagePlacement, WireJob.Stage, WireWindow) -> Void
    /// Called once the unit being written is out, when a frame found the wire busy.
    private var onFree: @Sendable () -> Void
    private var wanted = false
    /// A frame waits for every queued image to be out.
    private var wantedIdle = false
    /// The last shared memory objects made, which the terminal removes once it has read them.
    private var sharedNames: [String] = []

    /// The query after image data: DA1, answered once what came before has been read.
    static let query = TerminalProbe.deviceAttributes

    init(
        descriptor: Int32, roundTrip: Duration?, clock: Timekeeper, onShown: @escaping @Sendable (ImagePlacement, WireJob.Stage, WireWindow) -> Void
    ) {
        self.descriptor = descriptor
        self.clock = clock
        self.window = WireWindow(roundTrip: roundTrip)
        // The probe's round trip alone can say the link is slow, before any image is sent.
        LinkGauge.set(slow: window.isSlow)
        self.onShown = onShown
        self.onFree = {}
        let thread = Thread { [self] in run() }
        thread.name = "photopick terminal writer"
        thread.start()
    }

    /// Runs `body`, which writes a frame's text, with no image unit being written meanwhile.
    func withWire<T>(_ body: () throws -> T) rethrows -> T {
        wire.lock()
        defer { wire.unlock() }
        return try body()
    }

    /// Runs `body` if no image unit is being written; otherwise returns false at once, and `onFree` is
    /// called when the unit is out: the main actor never waits for an image on a slow link.
    func ifFree(_ body: () -> Void) -> Bool {
        if wire.try() {
            body()
            wire.unlock()
            return true
        }
        // The writer marks itself writing, under `state`, before it takes the wire: if it is not writing
        // now, the wire was only between two units.
        state.lock()
        if !writing, wire.try() {
            state.unlock()
            body()
            wire.unlock()
            return true
        }
        wanted = true
        state.unlock()
        return false
    }

    /// Runs `body` if no image job is queued or being written; otherwise returns false at once, and
    /// `onFree` is called once the last is out: for text that must follow the images before it.
    func ifIdle(_ body: () -> Void) -> Bool {
        state.lock()
        // Not writing, under `state`: the writer holds the wire only while it is.
        guard !writing, queue.isEmpty, wire.try() else {
            wantedIdle = true
            state.unlock()
            return false
        }
        state.unlock()
        body()
        wire.unlock()
        return true
    }

    /// What is called once a unit is out, when a frame found the wire busy.
    func whenFree(_ action: @escaping @Sendable () -> Void) {
        state.lock()
        onFree = action
        state.unlock()
    }

    /// Takes back the waiting jobs for images not in `keeping` (every one when nil); says which images
    /// that leaves unshown or unsent.
    func supersede(keeping: Set<ImageLayer.Key>?) -> Superseded {
        state.lock()
        defer { state.unlock() }
        return queue.supersede(keeping: keeping)
    }

    func enqueue(_ jobs: [WireJob]) {
        guard !jobs.isEmpty else { return }
        state.lock()
        queue.append(jobs, at: clock.elapsed())
        state.broadcast()
        state.unlock()
    }

    /// The terminal answered a query: what was before it has been read.
    func answered() {
        state.lock()
        window.answered(at: clock.elapsed())
        // Slow: a full-screen image of half a megabyte would take more than 150 ms.
        LinkGauge.set(slow: window.isSlow)
        state.broadcast()
        state.unlock()
    }


    /// The most image bytes ever in flight, with the window then: for tests.
    var peakInFlight: (bytes: Int, window: Int) {
        state.lock()
        defer { state.unlock() }
        return peak
    }
    private var peak = (bytes: 0, window: 0)

    /// Blocks until `condition` holds of the link, looking again each time the writer finishes a unit or
    /// the terminal answers (never on a timer): for tests.
    func waitUntil(_ condition: (WireWindow) -> Bool) {
        state.lock()
        while !condition(window) { state.wait() }
        state.unlock()
    }

    /// What the link looks like now.
    var link: WireWindow {
        state.lock()
        defer { state.unlock() }
        return window
    }

    /// Whether a query is still unanswered: its answer must be read before the terminal is handed back,
    /// or the shell would read it as typed.
    var isAwaitingAnswers: Bool {
        state.lock()
        defer { state.unlock() }
        return window.isAwaitingAnswers
    }

    /// Drops every job not begun and waits, at most `limit`, for the one begun to finish: before the
    /// terminal is handed back, so no image comes after.
    func drain(limit: Duration = .seconds(3)) {
        let deadline = clock.now().addingTimeInterval(limit.timeInterval)
        state.lock()
        _ = queue.supersede(keeping: nil)
        while (!queue.isEmpty || writing) && state.wait(until: deadline) {}
        state.unlock()
    }

    /// Ends the writer thread once the job begun is done, and removes shared memory the terminal has
    /// not read by then.
    func stop() {
        drain()
        state.lock()
        let names = sharedNames
        sharedNames = []
        state.unlock()
        names.forEach(SharedMemory.remove)
        state.lock()
        stopping = true
        state.broadcast()
        while !finished && state.wait(until: clock.now().addingTimeInterval(1)) {}
        state.unlock()
    }

    /// A unit's bytes; for a shared memory transmission, the object is made first, or if it cannot be,
    /// the pixels go in base64 after all.
    private func bytes(of unit: WireUnit) -> [UInt8] {
        guard let shared = unit.shared else { return unit.bytes }
        if SharedMemory.create(shared.name, shared.pixels) {
            state.lock()
            sharedNames.append(shared.name)
            if sharedNames.count > 64 { sharedNames.removeFirst() }
            state.unlock()
            return unit.bytes
        }
        let base64 = Base64.encodeToBytes(bytes: shared.pixels)
        return KittyCommands.transmit(id: shared.id, width: shared.size.width, height: shared.size.height, base64: base64).flatMap { $0 }
    }

    /// The wire is free again; called holding `state`. A frame that found it busy goes before the next
    /// unit, as the main actor takes the lock.
    private func doneWriting() {
        writing = false
        if wanted || (wantedIdle && queue.isEmpty) {
            wanted = false
            wantedIdle = wantedIdle && !queue.isEmpty
            onFree()
        }
    }

    private func run() {
        state.lock()
        while !stopping {
            let now = clock.elapsed()
            window.expire(at: now)
            // Small units (placements, hides) always go; image data waits for the window; a whole image
            // after a reduced one waits for the cursor to rest.
            let resting = queue.restsUntil(now: now)
            if resting == nil, let unit = queue.next, unit.count >= 1024, window.mustAsk(before: unit.count) {
                // What was written since the last query holds the room this unit needs: ask, so its
                // answer frees it.
                window.queried(at: now)
                writing = true
                state.unlock()
                wire.lock()
                TerminalDriver.writeAll(Self.query, to: descriptor)
                wire.unlock()
                state.lock()
                doneWriting()
                continue
            }
            guard resting == nil, let unit = queue.next, unit.count < 1024 || window.allows(unit.count),
                  let next = queue.take() else {
                // NSCondition traps on a far-off date: with nothing due, wait to be woken.
                if let due = [window.deadline, resting].compactMap({ $0 }).min() {
                    _ = state.wait(until: clock.now().addingTimeInterval(max(0.001, (due - now).timeInterval)))
                } else {
                    state.wait()
                }
                continue
            }
            writing = true
            state.unlock()
            // A shared memory object is made before the wire is taken: a frame need not wait for it.
            let unitBytes = bytes(of: next.unit)
            wire.lock()
            TerminalDriver.writeAll(unitBytes, to: descriptor)
            state.lock()
            // Counted before it is written, so an answer that comes at once finds it.
            let ask = window.wrote(unitBytes.count, endsImage: next.ended?.image != nil)
            if ask { window.queried(at: clock.elapsed()) }
            if window.inFlight > peak.bytes { peak = (window.inFlight, window.window) }
            state.unlock()
            if ask { TerminalDriver.writeAll(Self.query, to: descriptor) }
            wire.unlock()
            state.lock()
            doneWriting()
            state.broadcast()
            if let ended = next.ended, let placement = ended.placement {
                // Logged outside the lock, which the main actor takes every frame.
                let link = window
                state.unlock()
                onShown(placement, ended.stage, link)
                state.lock()
            }
        }
        finished = true
        state.broadcast()
        state.unlock()
    }
}
