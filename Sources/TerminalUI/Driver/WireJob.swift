import PhotoImaging
import PhotoPickSettings

/// Bytes written to the terminal whole: a frame's text may come before or after a unit, never inside it.
struct WireUnit: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// Sends pixels the terminal keeps without showing them (a kitty transmission's chunk).
        case transmit
        /// Shows pixels on screen (a kitty placement, a sixel or iTerm2 image or one of its strips).
        case place
        /// Hides or frees images; always written.
        case control
    }

    /// The unit is `head`, then `body`, then `tail`: a kitty chunk's body is a slice of the image's
    /// base64, shared with it, so a queued image is not held twice; the writer joins them as it writes.
    let head: [UInt8]
    let body: ArraySlice<UInt8>
    let tail: [UInt8]
    let kind: Kind
    /// kitty `t=s`: the shared memory object the writer makes just before the unit, so one never
    /// written is never made.
    var shared: SharedPixels?

    init(bytes: [UInt8], kind: Kind, shared: SharedPixels? = nil) {
        self.init(head: bytes, body: [], tail: [], kind: kind, shared: shared)
    }

    init(head: [UInt8], body: ArraySlice<UInt8>, tail: [UInt8], kind: Kind, shared: SharedPixels? = nil) {
        self.head = head
        self.body = body
        self.tail = tail
        self.kind = kind
        self.shared = shared
    }

    /// The unit's bytes, joined.
    var bytes: [UInt8] { head + body + tail }
    var count: Int { head.count + body.count + tail.count }
}

/// Pixels for a shared memory object, and its name.
struct SharedPixels: Equatable, Sendable {
    let name: String
    let pixels: [UInt8]
    let size: PixelSize
    let id: UInt32
}

/// One image's units, in order, or a frame's housekeeping. A job not begun when a newer frame no longer
/// wants its image is never written; one begun finishes its transmission but shows nothing more.
struct WireJob: Equatable, Sendable {
    /// The image it sends or shows; nil for housekeeping.
    let image: ImageLayer.Key?
    var units: [WireUnit]
    /// The placement it shows, for the log once it is on screen.
    let placement: ImagePlacement?
    /// Which version of the image: over a slow link a reduced one goes first and the whole one after.
    var stage = Stage.whole
    /// How long the job waits once queued, unless a newer frame takes it back first: the whole image
    /// after a reduced one waits for the cursor to rest.
    var rest: Duration = .zero

    enum Stage: Equatable, Sendable {
        case whole, reduced, wholeAfterReduced
    }

    static func control(_ bytes: [UInt8]) -> WireJob {
        WireJob(image: nil, units: [WireUnit(bytes: bytes, kind: .control)], placement: nil)
    }

    var transmits: Bool { units.contains { $0.kind == .transmit } }
}

/// What a newer frame took back from the jobs still waiting.
struct Superseded: Equatable, Sendable {
    /// Images never shown: their placement was not written.
    var notShown: [ImageLayer.Key] = []
    /// kitty images never sent: the terminal does not have their pixels.
    var notSent: [ImageLayer.Key] = []

}
