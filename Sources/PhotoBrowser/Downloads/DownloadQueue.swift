import Foundation
import PhotoPickKit

/// The downloads of this library: what is queued, running, paused, finished or failed, and how many run at once.
public struct DownloadQueue: Sendable, Equatable {
    /// In the order they were queued.
    public private(set) var items: [DownloadItem] = []
    /// How many run at once.
    public private(set) var concurrency = DownloadQueue.defaultConcurrency
    var nextID: Int64 = 1

    /// Four at a time unless the user says otherwise.
    public static let defaultConcurrency = 4
    /// The range `+` and `-` move concurrency within.
    public static let concurrencyRange = 1...16

    /// Figures across every item, for the queue strip.
    public struct Totals: Sendable, Equatable {
        public var queued = 0, running = 0, paused = 0, done = 0, skipped = 0, failed = 0
        /// Bytes on disk across all items, and what they will weigh when all are done.
        public var receivedBytes: Int64 = 0, expectedBytes: Int64 = 0
        /// The combined rate of running items.
        public var bytesPerSecond: Double = 0

        /// Time until everything queued or running is done, at the current rate.
        public var secondsRemaining: Double? {
            guard bytesPerSecond > 0 else { return nil }
            return Double(max(expectedBytes - receivedBytes, 0)) / bytesPerSecond
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
        items.first { $0.photoID == photoID && $0.variant == variant }
    }

    /// The item with this id.
    public func item(id: Int64) -> DownloadItem? {
        items.first { $0.id == id }
    }

    /// Whether anything is running or waiting to run.
    public var hasPendingWork: Bool { items.contains { $0.status == .running || $0.status == .queued } }

    // MARK: - Changes

    mutating func restore(_ restored: [DownloadItem]) {
        items = restored.map { item in
            var item = item
            // A download that was running when photopick stopped resumes from its .part file.
            if item.status == .running { item.status = .queued }
            return item
        }
        nextID = max(nextID, (items.map(\.id).max() ?? 0) + 1)
    }

    mutating func append(_ item: DownloadItem) {
        items.append(item)
        nextID = max(nextID, item.id + 1)
    }

    mutating func setConcurrency(_ value: Int) {
        concurrency = min(max(value, Self.concurrencyRange.lowerBound), Self.concurrencyRange.upperBound)
    }

    mutating func update(_ id: Int64, _ change: (inout DownloadItem) -> Void) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        change(&items[index])
    }

    mutating func remove(_ ids: Set<Int64>) {
        items.removeAll { ids.contains($0.id) }
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
