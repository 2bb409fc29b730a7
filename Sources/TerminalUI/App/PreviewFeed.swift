import PhotoBrowser
import PhotoPreviews

/// Hands the loader each frame's wants in order, the newest waiting one only, and again when something
/// shown still needs work (a failed fetch is tried again once due).
@MainActor
final class PreviewFeed {
    private let loader: PreviewLoader
    private let wants: AsyncStream<([PreviewRequest], shown: Int)>
    private let continuation: AsyncStream<([PreviewRequest], shown: Int)>.Continuation
    private var last: [PreviewRequest] = []

    init(loader: PreviewLoader) {
        self.loader = loader
        (wants, continuation) = AsyncStream.makeStream(of: ([PreviewRequest], shown: Int).self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The tasks that feed the loader and report its updates; the app cancels them when it ends.
    func tasks(onUpdate: @escaping @Sendable () -> Void) -> [Task<Void, Never>] {
        let loader = loader, wants = wants
        return [
            Task { for await _ in loader.updates { onUpdate() } },
            Task { for await (requests, shown) in wants { await loader.want(requests, shown: shown) } },
        ]
    }

    /// What the frame just drawn wants; the first `shown` are on screen.
    func want(_ requests: [PreviewRequest], shown: Int) {
        guard requests != last || requests.contains(where: { loader.store.holds($0) == false }) else { return }
        last = requests
        continuation.yield((requests, shown: shown))
    }

    func finish() { continuation.finish() }
}

/// Hands the loupe loader each frame's views when they change, the newest waiting one only.
@MainActor
final class LoupeFeed {
    private let loader: LoupeLoader
    private let wants: AsyncStream<[LoupeRequest]>
    private let continuation: AsyncStream<[LoupeRequest]>.Continuation
    private var last: [LoupeRequest] = []

    init(loader: LoupeLoader) {
        self.loader = loader
        (wants, continuation) = AsyncStream.makeStream(of: [LoupeRequest].self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The tasks that feed the loader and report its frames; the app cancels them when it ends.
    func tasks(onUpdate: @escaping @Sendable () -> Void) -> [Task<Void, Never>] {
        let loader = loader, wants = wants
        return [
            Task { for await _ in loader.updates { onUpdate() } },
            Task { for await requests in wants { await loader.want(requests) } },
        ]
    }

    /// What the frame just drawn shows at 100%.
    func want(_ requests: [LoupeRequest]) {
        guard requests != last else { return }
        last = requests
        continuation.yield(requests)
    }

    func finish() { continuation.finish() }
}
