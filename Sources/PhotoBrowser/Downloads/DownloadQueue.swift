import Foundation
import PhotoPickKit

/// The downloads of this library: what is queued, running, paused, finished or failed, and how many run at once.
public struct DownloadQueue: Sendable, Equatable {
    /// In the order they were queued.
    public private(set) var items: [DownloadItem] = []
    /// How many run at once.
    public private(set) var concurrency = DownloadQueue.defaultConcurrency
    var nextID: Int64 = 1
    /// Requests waiting while the files of their finished items are read (`FinishedDownloadCheck`).
    package internal(set) var fileChecksUnderWay = 0
    /// Files of ours found changed since they were downloaded, in the order found: the user's now, kept
    /// as they are, each named once.
    package internal(set) var keptFiles: [String] = []
    /// How many of `keptFiles` the status line has yet to count.
    var keptUntold = 0
    /// Where each item sits in `items`, by id, so bulk actions on a long queue stay linear.
    private var positions: [Int64: Int] = [:]
    /// Each photo and variant's item, so duplicates are found without a scan.
    private var idsByPhoto: [PhotoVariant: Int64] = [:]

    private struct PhotoVariant: Hashable {
        let photoID: Int
        let variant: DownloadSize
    }

    /// Four at a time unless the user says otherwise.
    public static let defaultConcurrency = 4
    /// The range `+` and `-` move concurrency within.
    package static let concurrencyRange = 1...16

    /// Figures across every item, for the queue strip.
    public struct Totals: Sendable, Equatable {
        /// How many items are in each status.
        public var queued = 0, running = 0, paused = 0, done = 0, skipped = 0, failed = 0
        /// Bytes on disk across all items, and what they will weigh when all are done.
        public var receivedBytes: Int64 = 0, expectedBytes: Int64 = 0
        /// The combined rate of running items.
        public var bytesPerSecond: Double = 0

        /// Time until everything queued or running is done, at the current rate.
        var secondsRemaining: Double? {
            guard bytesPerSecond > 0 else { return nil }
            return Double(max(expectedBytes - receivedBytes, 0)) / bytesPerSecond
        }

        /// Time until everything is done, counting the rate-limit budget too: each queued item still needs
        /// one request for its signed link, and past the requests left in this window they wait for the
        /// next windows (of a minute, as PhotoPick's are). Nil while nothing says.
        public func secondsRemaining(budget: RateLimitState?, now: Date) -> Double? {
            let transfer = secondsRemaining
            guard let budget, let limit = budget.limit, limit > 0, let left = budget.remaining, queued > max(left, 0) else { return transfer }
            let beyond = queued - max(left, 0)
            let windows = Double((beyond + limit - 1) / limit)
            let untilReset = max(0, budget.reset?.timeIntervalSince(now) ?? 60)
            return max(transfer ?? 0, untilReset + (windows - 1) * 60)
        }

        /// Items not finished and not failed.
        public var pending: Int { queued + running + paused }
    }

    /// Figures across every item.
    public var totals: Totals {
        var totals = Totals()
        for item in items {
            switch item.status {
            case .queued: totals.queued += 1
            case .running: totals.running += 1
            case .paused: totals.paused += 1
            case .done: totals.done += 1
            case .skipped: totals.skipped += 1
            case .failed: totals.failed += 1
            }
            guard item.status != .skipped else { continue }
            if case .failed = item.status { continue }
            totals.receivedBytes += item.receivedBytes
            totals.expectedBytes += item.expectedBytes
            totals.bytesPerSecond += item.status == .running ? item.bytesPerSecond ?? 0 : 0
        }
        return totals
    }

    /// The item for this photo and variant, if queued at any time.
    public func item(photoID: Int, variant: DownloadSize) -> DownloadItem? {
        idsByPhoto[PhotoVariant(photoID: photoID, variant: variant)].flatMap(item(id:))
    }

    /// The item with this id.
    func item(id: Int64) -> DownloadItem? {
        positions[id].map { items[$0] }
    }

    /// Whether anything is running or waiting to run.
    /// Whether anything is to come: a download running or queued, or a request whose finished files are
    /// still being checked (quitting then would drop that request, which is not saved until it is queued).
    var hasPendingWork: Bool { fileChecksUnderWay > 0 || items.contains { $0.status == .running || $0.status == .queued } }

    // MARK: - Changes

    /// Takes the queue a previous session left; `nextID` is the state database's next free id.
    mutating func restore(_ restored: [DownloadItem], nextID: Int64) {
        items = restored.map { item in
            var item = item
            // A download that was running when photopick stopped resumes from its .part file.
            if item.status == .running { item.status = .queued }
            return item
        }
        self.nextID = max(self.nextID, nextID)
        reindex()
    }

    mutating func append(_ item: DownloadItem) {
        positions[item.id] = items.count
        idsByPhoto[PhotoVariant(photoID: item.photoID, variant: item.variant)] = item.id
        items.append(item)
    }

    mutating func setConcurrency(_ value: Int) {
        concurrency = min(max(value, Self.concurrencyRange.lowerBound), Self.concurrencyRange.upperBound)
    }

    /// Changes the item with this id in place and returns it as changed, or nil when there is none.
    @discardableResult
    mutating func update(_ id: Int64, _ change: (inout DownloadItem) -> Void) -> DownloadItem? {
        guard let index = positions[id] else { return nil }
        change(&items[index])
        return items[index]
    }

    private mutating func reindex() {
        positions = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, $0) })
        idsByPhoto = Dictionary(items.map { (PhotoVariant(photoID: $0.photoID, variant: $0.variant), $0.id) }) { first, _ in first }
    }

    mutating func remove(_ ids: Set<Int64>) {
        items.removeAll { ids.contains($0.id) }
        reindex()
    }

    /// Marks queued items running, oldest first, up to the concurrency, and returns them to start.
    mutating func startNext() -> [DownloadItem] {
        var running = items.count { $0.status == .running }
        var started: [DownloadItem] = []
        for index in items.indices where running < concurrency && items[index].status == .queued {
            items[index].status = .running
            items[index].run += 1
            items[index].bytesPerSecond = nil
            items[index].lastSample = nil
            running += 1
            started.append(items[index])
        }
        return started
    }

    /// Records progress and updates the smoothed rate.
    mutating func recordProgress(_ id: Int64, run: Int, received: Int64, expected: Int64?, at seconds: Double) {
        update(id) { item in
            guard item.run == run, item.status == .running else { return }
            if let sample = item.lastSample, seconds - sample.seconds >= 0.25 {
                let rate = Double(received - sample.bytes) / (seconds - sample.seconds)
                // An exponential average: steady enough to read, quick enough to follow a change of speed.
                item.bytesPerSecond = item.bytesPerSecond.map { $0 * 0.7 + rate * 0.3 } ?? rate
                item.lastSample = (seconds, received)
            } else if item.lastSample == nil {
                item.lastSample = (seconds, received)
            }
            item.receivedBytes = received
            if let expected { item.totalBytes = expected }
        }
    }
}
