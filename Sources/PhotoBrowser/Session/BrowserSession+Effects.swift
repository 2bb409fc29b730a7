import CMemory
import Foundation
import PhotoPickKit

/// The effects an event asks for, run: each either finishes here or starts a task whose result comes
/// back as an event.
extension BrowserSession {
    func perform(_ effect: BrowserEffect) {
        if !isConfirmed, hold(effect) { return }
        switch effect {
        case .walkLibrary: walkLibrary()
        case .releaseFreedMemory: cmemory_release_free_pages()
        case .filterList(let job):
            // A newer key supersedes the job under way; its result would be dropped anyway.
            filterTask?.cancel()
            filterTask = Task {
                let result = await Task.detached(priority: .userInitiated) { job.run() }.value
                guard !Task.isCancelled else { return }
                self.report(.browsing(.listFiltered(result)))
            }
        case .scheduleRefresh(let delay):
            background { [clock] in
                guard (try? await clock.sleep(for: delay)) != nil else { return }
                self.report(.catalogue(.refreshDue))
            }
        case .cancelLoading: stopWalk()
        case .recordTagDeltas(let deltas): record(deltas)
        case .recordTagBulk(let bulk, let pending):
            do {
                try outbox.record(bulk, creating: pending)
                pump?.nudge()
            } catch {
                configuration.logger.error("outbox: \(error)")
                report(.tags(.tagBulkNotRecorded(bulk, reason: String(describing: error))))
            }
        case .recordTagCreation(let pending, let deltas): record(deltas, creating: pending)
        case .recordPhotoEdits(let edits): record(edits)
        case .purge(let items, let keepOriginals): purge(items, keepOriginals: keepOriginals)
        case .forgetPhotos(let ids):
            // Their outbox rows go too: nothing is left to send for a deleted photo.
            do {
                try outbox.removeAll(photoIDs: ids)
                try editOutbox.removeAll(photoIDs: ids)
            } catch {
                configuration.logger.error("outbox: \(error)")
            }
            writeCatalogue { try await $0.remove(photoIDs: ids) }
        case .savePhoto(let photo):
            writeCatalogue { try await $0.save(photo: photo) }
        case .saveFocusScore(let photoID, let score): saveFocusScore(score, photoID: photoID)
        case .discardTagDeltas(let tagID):
            do { try outbox.removeAll(tagID: tagID) } catch { configuration.logger.error("outbox: \(error)") }
        case .createTag(let name, let color):
            saveTag(named: name) { client async throws(APIError) in try await client.createTag(name: name, color: color) }
        case .renameTag(let id, let name):
            saveTag(named: name) { client async throws(APIError) in try await client.send(API.updateTag(id: id, TagUpdate(name: name))) }
        case .recolourTag(let id, let color):
            saveTag(named: nil) { client async throws(APIError) in try await client.send(API.updateTag(id: id, TagUpdate(color: .some(color)))) }
        case .deleteTag(let id): deleteTag(id: id)
        case .checkSpace(let items, let directory, let needed):
            report(.downloads(.downloadSpaceChecked(items, needed: needed, free: DownloadLocation.freeSpace(for: directory))))
        case .checkFinishedDownloads(let items, let request): checkFinishedDownloads(items, then: request)
        case .forgetWrittenFiles(let paths):
            // Files that changed since photopick wrote them are the user's now.
            do { try forgetWrittenFiles(paths) } catch { configuration.logger.error("written files: \(error)") }
        case .saveDownloads(let items): saveDownloads(items)
        case .deleteDownloads(let items, let discardPartials): deleteDownloads(items, discardPartials: discardPartials)
        case .startDownload(let item): startDownload(item)
        case .stopDownload(let id):
            downloadRuns[id]?.task.cancel()
        case .expireMessage(let id):
            background { [clock, lifetime = configuration.messageLifetime] in
                guard (try? await clock.sleep(for: lifetime)) != nil else { return }
                self.report(.status(.messageExpired(id: id)))
            }
        }
    }

    /// Writes photo edits to their outbox before the event's handling returns; if that fails, nothing is
    /// sent and the screen goes back.
    private func record(_ edits: [PhotoEdit]) {
        do {
            try editOutbox.record(edits)
            pump?.nudge()
        } catch {
            configuration.logger.error("edit outbox: \(error)")
            report(.edits(.photoEditsNotRecorded(edits, reason: String(describing: error))))
        }
    }

    /// Writes deltas, with the tags they wait for, to the outbox before anything is sent and before the
    /// event's handling returns; if that fails, nothing is sent and the screen goes back.
    private func record(_ deltas: [TagDelta], creating pending: [PendingTag] = []) {
        do {
            try outbox.record(deltas, creating: pending)
            pump?.nudge()
        } catch {
            configuration.logger.error("outbox: \(error)")
            report(.tags(.tagDeltasNotRecorded(deltas, reason: String(describing: error))))
        }
    }

    // MARK: - Tags

    /// Makes or changes a tag on the server, keeping the answer in the catalogue.
    private func saveTag(named name: String?, _ request: @escaping @Sendable (APIClient) async throws(APIError) -> PhotoPickKit.Tag) {
        let client = client
        Task {
            do throws(APIError) {
                let tag = try await request(client)
                try? await catalogue.save(tag: tag)
                report(.tags(.tagSaved(tag)))
            } catch {
                report(.tags(.tagOperationFailed(describe(error, savingName: name))))
            }
        }
    }

    private func deleteTag(id: Int) {
        let client = client
        Task {
            do throws(APIError) {
                try await client.send(API.deleteTag(id: id))
            } catch where error.status == 404 {
                // Already gone: the result the user wanted.
            } catch {
                return report(.tags(.tagOperationFailed("Could not delete the tag: \(error.userMessage)")))
            }
            try? await catalogue.remove(tagID: id)
            report(.tags(.tagDeleted(id: id)))
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
}
