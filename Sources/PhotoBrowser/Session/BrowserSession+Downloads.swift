import Foundation
import PhotoPickKit

/// The download queue on disk, and the transfers it starts.
extension BrowserSession {
    func saveDownloads(_ items: [DownloadItem]) {
        do {
            try downloadStore.insert(items)
        } catch {
            configuration.logger.error("download queue: \(error)")
            report(.status(.stateNotSaved("The download queue could not be saved (\(error)); it will not survive a restart.")))
        }
    }

    func deleteDownloads(_ items: [DownloadItem], discardPartials: Bool) {
        do {
            try downloadStore.delete(items.map(\.id))
        } catch {
            configuration.logger.error("download queue: \(error)")
        }
        guard discardPartials else { return }
        let client = client, previous = partialDiscards
        // A run told to stop may still hold its partial file; the Kit waits for it to let go. Each discard
        // goes after the one before, and stopping waits for them.
        partialDiscards = Task {
            await previous?.value
            for item in items {
                try? await client.discardPartialDownload(photo: item.photo, size: item.variant, in: item.directory)
            }
        }
    }

    /// Returns once every partial file asked to go has gone.
    func partialDiscardsEnded() async {
        while let discards = partialDiscards {
            await discards.value
            if partialDiscards == discards { partialDiscards = nil }
        }
    }

    func startDownload(_ item: DownloadItem) {
        let client = client, clock = clock
        let id = item.id, run = item.run
        let throttle = ProgressThrottle(clock: clock)
        let record = writtenFileRecorder
        let progressed: @Sendable (DownloadProgress) -> Void = { progress in
            guard throttle.shouldReport() else { return }
            let seconds = clock.seconds
            Task { [weak self] in
                await self?.report(.downloads(.downloadProgressed(
                    id: id, run: run, received: progress.receivedBytes, expected: progress.expectedBytes, at: seconds
                )))
            }
        }
        downloadRuns[id] = DownloadRun(number: run, task: Task {
            let outcome: BrowserReport = await RequestLane.$current.withValue(.download) {
                do {
                    return .downloads(.downloadFinished(id: id, run: run, try await client.download(
                        photo: item.photo, size: item.variant, into: item.directory, within: item.root, progress: progressed, willPlace: record
                    )))
                } catch {
                    return .downloads(.downloadFailed(id: id, run: run, reason: Self.describe(error)))
                }
            }
            // A later run of the same item may have taken the slot; only this run's own entry goes.
            if downloadRuns[id]?.number == run { downloadRuns[id] = nil }
            // A stopped run's ending, success or failure, is not news: the user paused or cancelled it.
            if !Task.isCancelled { self.report(outcome) }
        })
    }
}
