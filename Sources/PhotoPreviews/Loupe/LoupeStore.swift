import Foundation
import NIOConcurrencyHelpers
import PhotoImaging
import PhotoPickKit

/// A point of a picture as fractions of its upright width and height; (0.5, 0.5) is its centre.
public struct UnitPoint: Sendable, Hashable {
    /// Across, from 0 at the left edge to 1 at the right.
    public var x: Double
    /// Down, from 0 at the top edge to 1 at the bottom.
    public var y: Double

    /// A point, kept inside the picture.
    public init(x: Double, y: Double) {
        self.x = min(max(0, x), 1)
        self.y = min(max(0, y), 1)
    }

    /// The middle of the picture.
    public static let centre = UnitPoint(x: 0.5, y: 0.5)
}

/// One photo's 100% view as a frame asks for it: the part of the original around `centre` that fills `box`
/// at one image pixel per screen pixel.
public struct LoupeRequest: Hashable, Sendable {
    /// The photo, whole: the original's download names and checks its file by it.
    public var photo: Photo
    /// Where the view is centred.
    public var centre: UnitPoint
    /// The screen's pixels for the view, as a preview's box.
    public var box: PixelSize
    /// Whether blown highlights and crushed shadows are shown red and blue (`showingClipping`).
    public var clipping: Bool
    /// Whether the original's histogram is wanted (`H`): only then is every pixel of it counted.
    public var histogram: Bool

    /// The view of `photo` around `centre`, fitted to `box`, with its clipping shown or not, and the
    /// original's histogram wanted or not.
    public init(photo: Photo, centre: UnitPoint, box: PixelSize, clipping: Bool = false, histogram: Bool = false) {
        self.photo = photo
        self.centre = centre
        self.box = box
        self.clipping = clipping
        self.histogram = histogram
    }
}

/// What a loupe frame's pixels come from: the original, or a rendition standing in until it arrives.
public enum LoupeSource: Sendable, Hashable {
    case original
    case standIn(DownloadSize)
}

/// Where a photo's original is for the loupe.
public enum OriginalStatus: Sendable, Equatable {
    /// Coming: bytes so far and the whole, once known.
    case fetching(received: Int64, expected: Int64?)
    /// Here, in memory.
    case ready
    /// It cannot be had; the line says why. A stand-in stays on show.
    case failed(String)
}

/// A loupe view made ready for the screen.
public struct LoupeFrame: Sendable {
    /// What it answers.
    public let request: LoupeRequest
    /// The view's size in pixels: the box, or the image where that is smaller. The pixels themselves are
    /// not kept: the rendering is what the screen shows, and a 4K view is 25 MB of RGB.
    public let size: PixelSize
    /// The part of the original shown, in its upright pixels.
    public let view: Loupe.Region
    /// The original's upright size (estimated from the photo's metadata while a stand-in shows).
    public let imageSize: PixelSize
    /// Whether the original or a stand-in rendition made it.
    public let source: LoupeSource
    /// The pixels made ready for the terminal (symbols or a protocol's bytes).
    public let rendering: (any PreviewRendering)?
    /// What the original's 100% is of when it is not a JPEG's own pixels: "embedded preview 6000×4000",
    /// "50% demosaic", "HEIC original".
    public internal(set) var note: String? = nil

    /// Tells one frame's pixels from another's for the same photo and box, so the terminal is sent new ones.
    public var content: Int {
        var hasher = Hasher()
        hasher.combine(view)
        hasher.combine(source)
        hasher.combine(request.clipping)
        return hasher.finalize() | 1  // never 0, which is a fitted preview's
    }
}

/// The loupe's frames and originals' progress, read synchronously by the views while the loader fills it.
public final class LoupeStore: Sendable {
    private struct Entry: Sendable {
        var frame: LoupeFrame?
        var status: OriginalStatus?
        var standInFailure: String?
        var histogram: Histogram?
    }

    private let entries = NIOLockedValueBox<[Int: Entry]>([:])

    /// An empty store.
    public init() {}

    /// The newest frame of the photo, which may answer an earlier request while a newer one is made.
    public func frame(photoID: Int) -> LoupeFrame? {
        entries.withLockedValue { $0[photoID]?.frame }
    }

    /// How the photo's original is coming along; nil before it is asked for.
    public func status(photoID: Int) -> OriginalStatus? {
        entries.withLockedValue { $0[photoID]?.status }
    }

    /// Why no stand-in could be had either, when the original failed too.
    public func standInFailure(photoID: Int) -> String? {
        entries.withLockedValue { $0[photoID]?.standInFailure }
    }

    /// The histogram of the photo's whole original, once counted.
    public func histogram(photoID: Int) -> Histogram? {
        entries.withLockedValue { $0[photoID]?.histogram }
    }

    func setHistogram(_ histogram: Histogram, photoID: Int) {
        entries.withLockedValue { $0[photoID, default: Entry()].histogram = histogram }
    }

    func put(_ frame: LoupeFrame) {
        entries.withLockedValue { $0[frame.request.photo.id, default: Entry()].frame = frame }
    }

    func set(_ status: OriginalStatus, photoID: Int) {
        entries.withLockedValue { $0[photoID, default: Entry()].status = status }
    }

    func setStandInFailure(_ reason: String, photoID: Int) {
        entries.withLockedValue { $0[photoID, default: Entry()].standInFailure = reason }
    }

    /// Forgets every photo but `kept`.
    func keep(only kept: Set<Int>) {
        entries.withLockedValue { entries in entries = entries.filter { kept.contains($0.key) } }
    }

    /// Bytes of renderings held, for the benchmark.
    public var bytes: Int {
        entries.withLockedValue { $0.values.reduce(0) { $0 + ($1.frame.map { ($0.rendering?.byteCount ?? 0) } ?? 0) } }
    }
}

extension LoupeSource {
    /// `original`, or the rendition's name.
    public var name: String { variantName }

    /// The rendition's name, or `original`.
    var variantName: String {
        switch self {
        case .original: "original"
        case .standIn(let size): size.rawValue
        }
    }
}
