import Foundation
import PhotoPickKit

extension BrowserSession {
    // MARK: - Tags

    func createTag(name: String, color: String?) {
        let client = client
        Task {
            do {
                send(.tagSaved(try await client.createTag(name: name, color: color)))
            } catch let error as APIError {
                send(.tagOperationFailed(describe(error, creating: name)))
            } catch {
                send(.tagOperationFailed(Self.describe(error)))
            }
        }
    }

    func updateTag(id: Int, _ update: TagUpdate) {
        let client = client
        Task {
            do {
                send(.tagSaved(try await client.send(API.updateTag(id: id, update))))
            } catch let error as APIError {
                send(.tagOperationFailed(describe(error, creating: update.name)))
            } catch {
                send(.tagOperationFailed(Self.describe(error)))
            }
        }
    }

    func deleteTag(id: Int) {
        let client = client
        Task {
            do {
                try await client.send(API.deleteTag(id: id))
                send(.tagDeleted(id: id))
            } catch let error as APIError where error.status == 404 {
                // Already gone: the result the user wanted.
                send(.tagDeleted(id: id))
            } catch {
                send(.tagOperationFailed("Could not delete the tag: \(Self.describe(error))"))
            }
        }
    }

    /// A name clash names the tag that holds the name, so the user can pick it instead.
    private func describe(_ error: APIError, creating name: String?) -> String {
        guard error.code == .conflict, let name else { return "Could not save the tag: \(error.userMessage)" }
        var existingID: Int?
        if case .response(let response) = error, let id = response.details?["existingTagId"]?.integerValue { existingID = Int(id) }
        let existing = existingID.flatMap(state.tags.tag(id:))
            ?? state.tags.tags.first { $0.name.compare(name, options: [.caseInsensitive]) == .orderedSame }
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
            send(.tagOperationFailed("The download queue could not be saved (\(error)); it will not survive a restart."))
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
        let running = items.compactMap { downloadTasks.removeValue(forKey: $0.id) ?? stoppedDownloadTasks.removeValue(forKey: $0.id) }
        running.forEach { $0.cancel() }
        Task.detached {
            // The cancelled runs must let go of their partial files before these can be removed.
            for task in running { await task.value }
            for item in items {
                try? client.discardPartialDownload(photo: item.photo, size: item.variant, in: item.directory)
            }
        }
    }

    func startDownload(_ item: DownloadItem) {
        let client = client
        let id = item.id, run = item.run
        let throttle = ProgressThrottle()
        stoppedDownloadTasks[id] = nil
        let report: @Sendable (DownloadProgress) -> Void = { progress in
            guard throttle.shouldReport() else { return }
            let seconds = ProgressThrottle.now()
            Task { @MainActor [weak self] in
                self?.send(.downloadProgressed(id: id, run: run, received: progress.receivedBytes, expected: progress.expectedBytes, at: seconds))
            }
        }
        downloadTasks[id] = Task {
            do {
                let result = try await client.download(photo: item.photo, size: item.variant, into: item.directory, progress: report)
                downloadTasks[id] = nil
                send(.downloadFinished(id: id, run: run, result))
            } catch {
                if Task.isCancelled { return }
                downloadTasks[id] = nil
                send(.downloadFailed(id: id, run: run, reason: Self.describe(error)))
            }
        }
    }
}
