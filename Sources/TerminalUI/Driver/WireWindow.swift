import Foundation
import PhotoPickKit

/// How much image data may be on its way to the terminal, learned from the terminal's answers.
///
/// Over SSH, bytes written are not bytes shown: the pty, the SSH channel and the network hold them, and
/// text written behind them waits its turn. After every segment of image data the writer asks DA1, which
/// the terminal answers only once it has read everything before it, so the bytes between a query and
/// its answer are the bytes in flight. Image data waits while they would pass the window, which is what
/// the link carries in one round trip plus 50 ms: enough to keep it busy, little enough that a frame's
/// text written now is on screen within that time. Pure: the writer gives it the time.
struct WireWindow: Sendable {
    /// Image bytes between two queries.
    static let segment = 32 << 10
    /// The window before anything is measured, and its least.
    static let initialWindow = 256 << 10
    static let leastWindow = 64 << 10
    /// What a text frame may wait behind the images in flight, besides the round trip.
    static let textAllowance: Duration = .milliseconds(50)

    private struct Query {
        let bytes: Int
        let sentAt: Duration
        /// Whether the terminal had answered everything before this query when it was sent.
        let pipeWasEmpty: Bool
    }

    /// The shortest answer seen: the round trip with (almost) nothing ahead of the query.
    private(set) var roundTrip: Duration?
    /// Bytes a second the terminal consumes, smoothed; nil until a busy stretch is measured.
    private(set) var rate: Double?
    private var queries: [Query] = []
    /// Image bytes written since the last query.
    private var unqueried = 0
    /// The busy stretch under way: when its first answer came, and the bytes answered since.
    private var stretch: (start: Duration, bytes: Int)?
    /// Queries given up on: their answers never came.
    private(set) var lost = 0

    init(roundTrip: Duration? = nil) {
        self.roundTrip = roundTrip
    }

    /// The bytes the window lets be in flight.
    var window: Int {
        guard let rate, let roundTrip else { return Self.initialWindow }
        let seconds = (roundTrip + Self.textAllowance).timeInterval
        return max(Self.leastWindow, Int(rate * seconds))
    }

    /// Image bytes written and not yet known to be read.
    var inFlight: Int { queries.reduce(unqueried) { $0 + $1.bytes } }

    /// Whether `count` more image bytes may be written now: while they fit the window, and always while
    /// less than a round trip's worth is in flight, so a large unit (a sixel strip) never waits for the
    /// link to run dry.
    func allows(_ count: Int) -> Bool {
        inFlight == 0 || inFlight + count <= window || rate.map { Double(inFlight) < $0 * (roundTrip ?? .zero).timeInterval } ?? false
    }

    /// Whether a unit of `count` bytes waits for room that only the bytes written since the last query
    /// hold: no answer would ever free them, so a query must go now. (A strip just under a segment, then
    /// one that does not fit beside it, once left an image half drawn until the next key.)
    func mustAsk(before count: Int) -> Bool {
        unqueried > 0 && !allows(count)
    }

    /// Records image bytes written; true when a query should follow them now.
    mutating func wrote(_ count: Int, endsImage: Bool) -> Bool {
        unqueried += count
        return unqueried >= Self.segment || (endsImage && unqueried > 0)
    }

    /// Records a query written after the bytes since the last one.
    mutating func queried(at now: Duration) {
        queries.append(Query(bytes: unqueried, sentAt: now, pipeWasEmpty: queries.isEmpty))
        unqueried = 0
    }

    /// Records the terminal's answer to the oldest query, and learns from how long it took.
    mutating func answered(at now: Duration) {
        guard !queries.isEmpty else { return }
        let query = queries.removeFirst()
        let delay = now - query.sentAt
        if query.pipeWasEmpty, roundTrip.map({ delay < $0 }) ?? true { roundTrip = delay }
        if query.pipeWasEmpty || stretch == nil {
            // A new busy stretch starts at this answer; its own bytes say what they can from their delay.
            stretch = (now, 0)
            // Only a large segment's delay says much: a small one's reading drowns in the round trip's jitter.
            if let roundTrip, query.bytes >= 2 * Self.segment, delay - roundTrip > .milliseconds(10) {
                learn(Double(query.bytes) / (delay - roundTrip).timeInterval)
            }
            return
        }
        // Answers to queries that queued behind others come one segment's reading apart. Measured over the
        // whole stretch, not answer by answer: the app reads answers when it can, sometimes several at once.
        stretch?.bytes += query.bytes
        guard let stretch, now - stretch.start >= .milliseconds(40), stretch.bytes >= Self.segment else { return }
        learn(Double(stretch.bytes) / (now - stretch.start).timeInterval)
    }

    private mutating func learn(_ sample: Double) {
        rate = rate.map { 0.5 * $0 + 0.5 * sample } ?? sample
    }

    /// When the oldest query counts as lost: long past what the bytes ahead of it could take.
    var deadline: Duration? {
        guard let oldest = queries.first else { return nil }
        let expected: Double = rate.map { Double(inFlight) / $0 } ?? 0
        let trip: Duration = roundTrip ?? .zero
        let patience: Duration = .seconds(4 * expected) + trip * 4
        return oldest.sentAt + max(Duration.seconds(2), patience)
    }

    /// Gives up on the oldest query (a terminal that did not answer): its bytes no longer hold the window.
    mutating func expire(at now: Duration) {
        guard let deadline, now >= deadline else { return }
        queries.removeFirst()
        lost += 1
    }

    /// Takes a rate measured elsewhere (`photopick doctor`).
    mutating func assume(rate: Double) {
        self.rate = rate
    }

    /// Whether a query is still unanswered.
    var isAwaitingAnswers: Bool { !queries.isEmpty }

    /// For the log and `photopick doctor`: the rate, round trip and window as measured.
    var summary: String {
        let rate = rate.map { String(format: "%.1f MB/s", $0 / 1e6) } ?? "rate not measured"
        let trip = roundTrip.map { String(format: "round trip %.0f ms", $0.timeInterval * 1000) } ?? "round trip not measured"
        return "link \(rate), \(trip), window \(window >> 10) KB"
    }

    /// Whether the link is slow enough that a full image is worth preceding with a reduced one: its
    /// bytes would take more than `budget` to arrive.
    /// Whether images should go reduced first: a full-screen image of half a megabyte would take more
    /// than 150 ms. Before any rate is learned, a round trip of 30 ms or more says the terminal is across
    /// a network (one on this machine answers within a few): slow until measured otherwise.
    var isSlow: Bool {
        guard let rate else { return (roundTrip ?? .zero) >= Self.remoteRoundTrip }
        return Double(512 << 10) / rate + (roundTrip ?? .zero).timeInterval > 0.150
    }

    static let remoteRoundTrip: Duration = .milliseconds(30)
}
