import Foundation
import PhotoPickKit

extension BrowserSession {
    // MARK: - Tags

    func createTag(name: String, color: String?) {
        let client = client
        onSession { _ in
            do throws(APIError) {
                let tag = try await client.createTag(name: name, color: color)
                try? await self.catalogue.save(tag: tag)
                self.send(.tagSaved(tag))
            } catch {
                self.send(.tagOperationFailed(self.describe(error, savingName: name)))
            }
        }
    }

    func updateTag(id: Int, _ update: TagUpdate) {
        let client = client
        onSession { _ in
            do throws(APIError) {
                let tag = try await client.send(API.updateTag(id: id, update))
                try? await self.catalogue.save(tag: tag)
                self.send(.tagSaved(tag))
            } catch {
                self.send(.tagOperationFailed(self.describe(error, savingName: update.name)))
            }
        }
    }

    func deleteTag(id: Int) {
        let client = client
        onSession { _ in
            do throws(APIError) {
                try await client.send(API.deleteTag(id: id))
                try? await self.catalogue.remove(tagID: id)
                self.send(.tagDeleted(id: id))
            } catch where error.status == 404 {
                // Already gone: the result the user wanted.
                try? await self.catalogue.remove(tagID: id)
                self.send(.tagDeleted(id: id))
            } catch {
                self.send(.tagOperationFailed("Could not delete the tag: \(error.userMessage)"))
            }
        }
    }

    /// A name clash names the tag that holds the name, so the user can pick it instead.
    private func describe(_ error: APIError, savingName name: String?) -> String {
        guard error.code == .conflict, let name else { return "Could not save the tag: \(error.userMessage)" }
        var existing: PhotoPickKit.Tag?
        if case .response(let response) = error, let id = response.existingTagID { existing = state.tags.tag(id: id) }
        existing = existing ?? state.tags.tag(named: name)
        if let existing {
            return "A tag named “\(existing.name)” already exists (number \((state.tags.tags.firstIndex(of: existing) ?? 0) + 1) in the list); pick it with t, or choose another name."
        }
        return "A tag named “\(name)” already exists; pick it with t, or choose another name."
    }

    // MARK: - Downloads

    func saveDownloads(_ items: [DownloadItem]) {
        do {
            try downloadStore.insert(items)
        } catch {
            configuration.logger.error("download queue: \(error)")
            send(.stateNotSaved("The download queue could not be saved (\(error)); it will not survive a restart."))
        }
    }

    func deleteDownloads(_ items: [DownloadItem], discardPartials: Bool) {
        do {
            try downloadStore.delete(items.map(\.id))
        } catch {
            configuration.logger.error("download queue: \(error)")
        }
        guard discardPartials else { return }
        let client = client
        // A run told to stop may still hold its partial file; the Kit waits for it to let go.
        Task {
            for item in items {
                try? await client.discardPartialDownload(photo: item.photo, size: item.variant, in: item.directory)
            }
        }
    }

    func startDownload(_ item: DownloadItem) {
        let client = client
        let id = item.id, run = item.run
        let throttle = ProgressThrottle()
        let record = writtenFileRecorder
        let report: @Sendable (DownloadProgress) -> Void = { progress in
            guard throttle.shouldReport() else { return }
            let seconds = ProgressThrottle.now()
            Task { [weak self] in
                await self?.post(.downloadProgressed(id: id, run: run, received: progress.receivedBytes, expected: progress.expectedBytes, at: seconds))
            }
        }
        downloadRuns[id] = DownloadRun(number: run, task: onSession { _ in
            let outcome: BrowserEvent = await RequestLane.$current.withValue(.download) {
                do {
                    return .downloadFinished(id: id, run: run, try await client.download(
                        photo: item.photo, size: item.variant, into: item.directory, within: item.root, progress: report, willPlace: record
                    ))
                } catch {
                    return .downloadFailed(id: id, run: run, reason: Self.describe(error))
                }
            }
            // A later run of the same item may have taken the slot; only this run's own entry goes.
            if self.downloadRuns[id]?.number == run { self.downloadRuns[id] = nil }
            // A stopped run's ending, success or failure, is not news: the user paused or cancelled it.
            if !Task.isCancelled { self.send(outcome) }
        })
    }
}

/// The task downloading one queue item, and which run of the item it is.
struct DownloadRun {
    let number: Int
    let task: Task<Void, Never>
}
