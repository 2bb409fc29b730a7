import PhotoBrowser

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
    func tasks(onUpdate: @escaping @Sendable () -> Void, onFocus: @escaping @MainActor (Int, Double) -> Void) -> [Task<Void, Never>] {
        let loader = loader, wants = wants
        return [
            Task { for await _ in loader.updates { onUpdate() } },
            Task { for await (photoID, score) in loader.focusScores { onFocus(photoID, score) } },
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
