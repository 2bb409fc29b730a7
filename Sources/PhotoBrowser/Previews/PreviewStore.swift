import Foundation
import NIOConcurrencyHelpers

/// Which preview: a photo fitted inside a box of pixels.
public struct PreviewRequest: Hashable, Sendable {
    /// The photo's id.
    public var photoID: Int
    /// The box the preview must fit inside, in pixels.
    public var box: PixelSize

    /// The preview of `photoID` fitted inside `box`.
    public init(photoID: Int, box: PixelSize) {
        self.photoID = photoID
        self.box = box
    }
}

/// A finished preview: the pixels, or why there are none.
public enum PreviewState: Sendable, Equatable {
    case loaded(PreviewImage)
    case failed(PreviewError)
}

/// The memory cache of decoded, scaled previews, bounded in bytes and read synchronously by the views
/// while the loader fills it from other tasks.
public final class PreviewStore: Sendable {
    /// Room for about 500 side-pane previews, or 100 full-screen ones at 200×120 cells.
    public static let defaultByteLimit = 32 << 20
    /// How long a failed fetch is remembered before the preview is asked for again; a damaged file
    /// is remembered for the session.
    static let fetchRetryDelay: Duration = .seconds(15)

    private struct Entry: Sendable {
        let state: PreviewState
        let retryAt: ContinuousClock.Instant?
    }

    private let cache: NIOLockedValueBox<LRUCache<PreviewRequest, Entry>>

    /// An empty store that holds up to `byteLimit` bytes of previews.
    public init(byteLimit: Int = PreviewStore.defaultByteLimit) {
        cache = NIOLockedValueBox(LRUCache(costLimit: byteLimit))
    }

    /// The finished preview for `request`, or nil while there is none (yet, or any longer). A failed
    /// fetch stays on show until a new try replaces it.
    public func state(for request: PreviewRequest) -> PreviewState? {
        cache.withLockedValue { $0.value(for: request)?.state }
    }

    /// Whether `request` needs no more work: it is here, and is not a failed fetch due another try.
    public func holds(_ request: PreviewRequest) -> Bool {
        cache.withLockedValue { cache in
            guard let entry = cache.peek(request) else { return false }
            return entry.retryAt.map { ContinuousClock.now < $0 } ?? true
        }
    }

    /// Keeps a finished preview; the least recently used go when the bytes would pass the limit.
    public func store(_ state: PreviewState, for request: PreviewRequest) {
        let entry: Entry
        let cost: Int
        switch state {
        case .loaded(let image):
            entry = Entry(state: state, retryAt: nil)
            cost = image.pixels.count + 64
        case .failed(let error):
            if case .unavailable = error {
                entry = Entry(state: state, retryAt: .now + Self.fetchRetryDelay)
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
