import Foundation
import PhotoImaging
import PhotoPickKit

/// Makes the loupe's frames: fetches each wanted photo's original on demand through the user's lane,
/// with progress, while the largest cached rendition (else `a4`) stands in; then decodes only the band
/// around the view (`Loupe`, `PreviewDecoder.decodeRegion`), so a pan within it is a copy; for a
/// renderer slower than a pan (symbols, sixel), the views one pan away are rendered while nothing is
/// asked, so a pan to one is shown at once.
public actor LoupeLoader {
    /// Gets a photo's original into memory, reporting progress; normally a resumable file download.
    public typealias FetchOriginal = @Sendable (_ photo: Photo, _ progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> [UInt8]

    /// The newest frames, for the views.
    public nonisolated let store: LoupeStore
    /// Yields when a frame lands or an original's progress moves.
    public nonisolated let updates: AsyncStream<Void>
    /// The focus of each view of an original shown, measured at 100% (`LoupeFocus`).
    package nonisolated let focusScores: AsyncStream<LoupeFocus>

    /// Renditions, shared with the previews; the largest one cached stands in without a request.
    let renditions: RenditionSource
    let fetchOriginal: FetchOriginal
    /// Originals already fetched.
    let originals: PreviewDiskCache?
    let render: PreviewLoader.Render?
    /// Originals of every format: JPEG on `decoder`'s path, the rest through their own libraries.
    let originalDecoder = OriginalDecoder()
    /// Renditions, and the bands of JPEG originals.
    var decoder: PreviewDecoder { originalDecoder.jpeg }
    let continuation: AsyncStream<Void>.Continuation
    let focusContinuation: AsyncStream<LoupeFocus>.Continuation
    /// The view of each photo last measured for focus, and the measurements under way.
    var measuredViews: [Int: Loupe.Region] = [:]
    var focusTasks: [Int: Task<Void, Never>] = [:]
    /// Histograms of originals being counted.
    var histogramTasks: [Int: Task<Void, Never>] = [:]

    /// A picture to show from: an original as its format's decoder made it ready, or a rendition's
    /// JPEG bytes; its upright size.
    struct Source: Sendable {
        let picture: OriginalPicture
        let kind: LoupeSource

        /// Its upright size.
        var size: PixelSize { picture.size }

        /// What the loupe's caption says the 100% is of, for an original that is not a plain JPEG.
        var note: String? {
            guard kind == .original else { return nil }
            return picture.note ?? (picture.format == .jpeg ? nil : "\(picture.format.name) original")
        }

    }

    var wanted: [LoupeRequest] = []
    var sources: [Int: Source] = [:]
    /// The band decoded from each original, kept so a pan inside it decodes nothing.
    var loupes: [Int: Loupe] = [:]
    /// Whether the views one pan away are rendered in the background: for renderers slower than a pan
    /// (libchafa's symbols and sixel palette take tens of milliseconds for a full-screen view).
    let rendersAhead: Bool
    /// Renderings of the views one pan away from each original's view (and of the view just left, for
    /// the way back), by the screen's box and the view: a pan to one is shown without decoding or rendering.
    var ahead: [Int: (box: PixelSize, clipping: Bool, views: [Loupe.Region: any PreviewRendering])] = [:]
    /// Frames shown from `ahead`, for tests and the benchmark.
    public internal(set) var shownFromAhead = 0
    /// Renditions sent for to stand in, for tests.
    public internal(set) var standInsStarted = 0

    /// How many views around a photo's view are rendered ahead now, for the benchmark.
    public func renderedAhead(photoID: Int) -> Int {
        ahead[photoID]?.views.count ?? 0
    }
    /// Fetches under way, each with a number that tells it from a later one for the same photo.
    var originalTasks: [Int: (token: Int, task: Task<Void, Never>)] = [:]
    var standInTasks: [Int: (token: Int, task: Task<Void, Never>)] = [:]
    var nextToken = 0
    /// Photos whose original could not be had this time the loupe was open on them.
    var failed: Set<Int> = []
    /// Photos whose original cannot be shown at all (a format photopick does not read, or damaged): not fetched again this session.
    var unreadable: Set<Int> = []
    var worker: Task<Void, Never>?
    /// What progress reports are paced by.
    let clock: Timekeeper
    var pending = false
    var isStopped = false

    /// - Parameters:
    ///   - disk: the renditions' cache, read for a stand-in and filled by its fetch.
    ///   - originals: a cache of originals, so a photo looked at again is not fetched again.
    ///   - render: makes a view ready for the screen, as the previews' renderer.
    ///   - rendersAhead: render the views one pan away in the background, for a renderer slower than a pan.
    ///   - clock: what progress reports are paced by.
    public init(
        disk: PreviewDiskCache?, originals: PreviewDiskCache?, render: PreviewLoader.Render?, rendersAhead: Bool = false, clock: Timekeeper,
        fetchVariant: @escaping PreviewLoader.Fetch, fetchOriginal: @escaping FetchOriginal
    ) {
        store = LoupeStore()
        self.clock = clock
        self.rendersAhead = rendersAhead
        renditions = RenditionSource(disk: disk, fetch: fetchVariant)
        self.originals = originals
        self.render = render
        self.fetchOriginal = fetchOriginal
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (focusScores, focusContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// What the frame on screen shows, most important first: the photos' originals are fetched, and work
    /// on photos no longer wanted stops (a download keeps its partial file).
    public func want(_ requests: [LoupeRequest]) {
        guard !isStopped else { return }
        wanted = requests
        let ids = Set(requests.map(\.photo.id))
        for (id, work) in originalTasks where !ids.contains(id) { work.task.cancel(); originalTasks[id] = nil }
        for (id, work) in standInTasks where !ids.contains(id) { work.task.cancel(); standInTasks[id] = nil }
        sources = sources.filter { ids.contains($0.key) }
        loupes = loupes.filter { ids.contains($0.key) }
        ahead = ahead.filter { ids.contains($0.key) }
        failed = failed.intersection(ids)
        measuredViews = measuredViews.filter { ids.contains($0.key) }
        for (id, task) in focusTasks where !ids.contains(id) { task.cancel(); focusTasks[id] = nil }
        for (id, task) in histogramTasks where !ids.contains(id) { task.cancel(); histogramTasks[id] = nil }
        store.keep(only: ids)
        for request in requests where sources[request.photo.id]?.kind != .original {
            startOriginal(request.photo)
        }
        for request in requests where request.histogram {
            if let source = sources[request.photo.id], source.kind == .original { countHistogram(photoID: request.photo.id, source.picture) }
        }
        kick()
    }

    /// Stops all work; nothing lands in the store afterwards.
    public func stop() {
        isStopped = true
        for work in originalTasks.values { work.task.cancel() }
        for work in standInTasks.values { work.task.cancel() }
        worker?.cancel()
        for task in focusTasks.values { task.cancel() }
        for task in histogramTasks.values { task.cancel() }
        histogramTasks = [:]
        originalTasks = [:]
        standInTasks = [:]
        focusTasks = [:]
        ahead = [:]
        continuation.finish()
        focusContinuation.finish()
    }

    /// Returns once the loader has nothing left to do for what is wanted now: every view made, and the
    /// bands and views ahead of it too. For tests and the bench, which then know nothing more is coming.
    public func finishWork() async {
        while let worker { await worker.value }
    }

    func kick() {
        pending = true
        guard worker == nil, !isStopped else { return }
        worker = Task { await self.work() }
    }

    /// The name originals are filed under in their cache.
    static let originalVariant = "original"

    static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }
}
