import Foundation
import NIOConcurrencyHelpers
import PhotoImaging
import PhotoPickKit

/// Which preview: a photo fitted inside a box of pixels.
public struct PreviewRequest: Hashable, Sendable {
    /// The photo's id.
    public var photoID: Int
    /// The box the preview must fit inside, in pixels.
    public var box: PixelSize
    /// Whether blown highlights and crushed shadows are shown red and blue (`showingClipping`).
    public var clipping: Bool

    /// The preview of `photoID` fitted inside `box`, with its clipping shown or not.
    public init(photoID: Int, box: PixelSize, clipping: Bool = false) {
        self.photoID = photoID
        self.box = box
        self.clipping = clipping
    }
}

/// A preview made ready for the screen after decoding (cells of symbols, or bytes for a graphics
/// protocol), kept beside the pixels and counted against the store's limit.
public protocol PreviewRendering: Sendable {
    /// Bytes held, for the store's bound.
    var byteCount: Int { get }
}

/// A finished preview: the pixels, or why there are none.
public enum PreviewState: Sendable, Equatable {
    case loaded(PreviewImage)
    case failed(PreviewError)
}

/// The memory cache of decoded, scaled previews, bounded in bytes and read synchronously by the views
/// while the loader fills it from other tasks.
public final class PreviewStore: Sendable {
    /// Room for about 40 side-pane previews in real pixels (500×600, with their encoded bytes), or
    /// hundreds as symbols.
    public static let defaultByteLimit = 96 << 20
    /// How long a failed fetch is remembered before the preview is asked for again; a damaged file
    /// is remembered for the session.
    static let fetchRetryDelay: Duration = .seconds(15)

    private struct Entry: Sendable {
        let state: PreviewState
        /// When, on the store's clock, a failed fetch may be tried again.
        let retryAt: Duration?
        var rendering: (any PreviewRendering)? = nil
        var histogram: Histogram? = nil
    }

    private let cache: NIOLockedValueBox<LRUCache<PreviewRequest, Entry>>
    private let clock: Timekeeper

    /// An empty store that holds up to `byteLimit` bytes of previews, timing retries on `clock`.
    public init(byteLimit: Int = PreviewStore.defaultByteLimit, clock: Timekeeper) {
        cache = NIOLockedValueBox(LRUCache(costLimit: byteLimit))
        self.clock = clock
    }

    /// The finished preview for `request`, or nil while there is none (yet, or any longer). A failed
    /// fetch stays on show until a new try replaces it.
    public func state(for request: PreviewRequest) -> PreviewState? {
        cache.withLockedValue { $0.value(for: request)?.state }
    }

    /// What the loader's renderer made of the preview, when it has one.
    public func rendering(for request: PreviewRequest) -> (any PreviewRendering)? {
        cache.withLockedValue { $0.value(for: request)?.rendering }
    }

    /// The histogram of the preview's pixels (before any clipping is shown on them), once loaded.
    public func histogram(for request: PreviewRequest) -> Histogram? {
        cache.withLockedValue { $0.value(for: request)?.histogram }
    }

    /// Whether `request` needs no more work: it is here, and is not a failed fetch due another try.
    public func holds(_ request: PreviewRequest) -> Bool {
        cache.withLockedValue { cache in
            guard let entry = cache.peek(request) else { return false }
            return entry.retryAt.map { clock.elapsed() < $0 } ?? true
        }
    }

    /// Keeps a finished preview; the least recently used go when the bytes would pass the limit.
    public func store(_ state: PreviewState, rendering: (any PreviewRendering)? = nil, histogram: Histogram? = nil, for request: PreviewRequest) {
        let entry: Entry
        let cost: Int
        switch state {
        case .loaded(let image):
            entry = Entry(state: state, retryAt: nil, rendering: rendering, histogram: histogram)
            cost = image.pixels.count + (rendering?.byteCount ?? 0) + (histogram == nil ? 64 : 8_256)
        case .failed(let error):
            if case .unavailable = error {
                entry = Entry(state: state, retryAt: clock.elapsed() + Self.fetchRetryDelay)
            } else {
                entry = Entry(state: state, retryAt: nil)
            }
            cost = 64
        }
        cache.withLockedValue { _ = $0.insert(entry, for: request, cost: cost) }
    }

    /// Bytes held, and how many previews.
    public var usage: (bytes: Int, count: Int) {
        cache.withLockedValue { ($0.totalCost, $0.count) }
    }
}
