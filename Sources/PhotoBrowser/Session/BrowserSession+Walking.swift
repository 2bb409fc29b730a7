import Foundation
import PhotoPickKit

/// The catalogue on disk: read at the start, kept up to date by the walk over the server's pages and by
/// what the session's edits and measurements learn.
extension BrowserSession {
    /// Reads the catalogue off the main actor; a file that fails to read is set aside and an empty one
    /// takes its place.
    func loadCatalogue() async {
        let catalogue = self.catalogue
        var notice = catalogueNotice
        catalogueNotice = nil
        var snapshot: Catalogue.Snapshot
        let started = clock.elapsed()
        do {
            snapshot = try await Task.detached { try catalogue.snapshot() }.value
        } catch {
            configuration.logger.error("catalogue: \(error)")
            do {
                let (fresh, rebuiltNotice) = try catalogue.rebuilt(library: configuration.library, after: error, at: clock.now())
                self.catalogue = fresh
                await pump?.use(fresh)
                notice = rebuiltNotice
            } catch {
                notice = "The local catalogue cannot be written (\(error)); photos are listed from the server and not kept."
            }
            snapshot = Catalogue.Snapshot()
        }
        if let notice { configuration.logger.warning("catalogue: \(notice)") }
        let stale = snapshot.isLibraryFileStale
        let read = clock.elapsed()
        let (photos, rows) = (snapshot.library.count, snapshot.photos.count)
        report(.catalogue(.catalogueLoaded(snapshot, notice: notice, at: clock.now())))
        configuration.logger.debug("catalogue: \(photos) photos from \(photos > 0 && !stale ? "the library file" : "its rows") and \(rows) rows since, read in \((read - started).milliseconds) ms, in the state \((clock.elapsed() - read).milliseconds) ms later")
        startEditSender()
        if stale { writeLibraryFile() }
    }

    /// Writes the library file again from the catalogue, in the background at a low priority: after a
    /// start that found it missing or far behind, and after every complete walk. A quit does not wait for
    /// it; the file is renamed into place only when whole.
    func writeLibraryFile() {
        let catalogue = catalogue, logger = configuration.logger
        Task.detached(priority: .utility) {
            do { try catalogue.writeLibraryFile() } catch { logger.notice("library file not written: \(error)") }
        }
    }

    /// Walks every page at the listing's priority, keeping each page and the cursor after it in the
    /// catalogue before showing it, so an interrupted walk resumes where it stopped. When the walk is
    /// complete, the photos it did not see are the ones deleted on the server.
    func walkLibrary() {
        stopWalk()
        let catalogue = catalogue, client = client, clock = clock
        // A check the user did not ask for keeps to its share of the budget (`RefreshPace`).
        let pace = state.loading.isPaced ? RefreshPace.interval(photos: state.library.count, limit: state.account.rateLimit?.limit) : nil
        let isFirstListing = !state.loading.isRefresh
        let deliver: @Sendable (BrowserReport) async -> Void = { [weak self] report in await self?.report(report) }
        loadTask = Task {
            // Only a first listing adds rows by the hundred thousand; a check changes few.
            let checkpoint: @Sendable () -> Void = { [weak self] in
                guard isFirstListing else { return }
                Task { await self?.writeLibraryFile() }
            }
            guard let outcome = await Self.walk(
                catalogue: catalogue, client: client, clock: clock, pace: pace, checkpoint: checkpoint, deliver: deliver
            ) else { return }
            await deliver(outcome)
            if case .catalogue(.photosFinished) = outcome { self.writeLibraryFile() }
        }
    }

    /// Tells the walk under way to stop; a page it has in hand stays out.
    func stopWalk() {
        guard let loadTask else { return }
        loadTask.cancel()
        // Kept so stopping waits for it; a session stops a walk a few times at most (a pause, a refresh).
        stoppedWalks.append(loadTask)
        self.loadTask = nil
    }

    /// Returns once every walk told to stop has ended: nothing more of theirs arrives.
    func stoppedWalksEnded() async {
        let walks = stoppedWalks
        for walk in walks { await walk.value }
        stoppedWalks.removeAll { walks.contains($0) }
    }

    /// The walk itself, off the main actor, with the listing's task-local lane: photos past the last
    /// complete walk's tail first (new photos, in a request or two), then every page from the walk's
    /// cursor, each going to `deliver` once saved, `pace` apart when it is a check the user did not ask
    /// for; returns how it ended, or nil when it was stopped.
    @concurrent
    private nonisolated static func walk(
        catalogue: Catalogue, client: APIClient, clock: Timekeeper, pace: Duration?, checkpoint: @escaping @Sendable () -> Void,
        deliver: @escaping @Sendable (BrowserReport) async -> Void
    ) async -> BrowserReport? {
        await RequestLane.$current.withValue(.listing) {
            var walk: Catalogue.Walk?
            do {
                var current = try catalogue.beginWalk()
                walk = current
                if let tail = try catalogue.tailCursor() {
                    guard await lookPastTail(tail, generation: current.generation, catalogue: catalogue, client: client, clock: clock, deliver: deliver) else { return nil }
                }
                // Each page is asked for when the one before it is handed over (one is fetched ahead).
                var askedAt = clock.now()
                var pageCursor = current.cursor, lastPageCursor = current.cursor
                for try await page in PageStream<Photo>(client: client, startingAt: current.cursor) {
                    // A page already in hand when loading was paused stays out, so "paused" means paused.
                    guard !Task.isCancelled else { return nil }
                    let next = page.hasNextPage ? page.pagination.nextCursor : nil
                    current.seen += page.data.count
                    try await catalogue.save(page: page.data, nextCursor: next, walk: current, at: askedAt)
                    (lastPageCursor, pageCursor) = (pageCursor, next)
                    current.cursor = next
                    walk = current
                    // Saved, so shown: the next walk starts after it.
                    await deliver(.catalogue(.photosArrived(page.data, nextCursor: next)))
                    // A long first listing is often quit part way: the library file keeps up with it, so
                    // the next start reads the rows since the last checkpoint, not every one.
                    if current.seen / Self.checkpointEvery != (current.seen - page.data.count) / Self.checkpointEvery { checkpoint() }
                    if let pace, next != nil { try await clock.sleep(for: pace) }
                    askedAt = clock.now()
                }
                guard !Task.isCancelled else { return nil }
                let finished = clock.now()
                let deleted = try await catalogue.completeWalk(current, at: finished, tail: lastPageCursor)
                return .catalogue(.photosFinished(deleted: deleted, at: finished))
            } catch is InvalidCursorError {
                if let walk { try? catalogue.restartWalk(walk) }
                return .catalogue(.photosCursorRefused)
            } catch is CancellationError {
                return nil
            } catch APIError.cancelled {
                return nil
            } catch let error as APIError {
                return .catalogue(.photosFailed(describe(error)))
            } catch {
                return .catalogue(.photosFailed("the catalogue could not be written (\(error))"))
            }
        }
    }

    /// Asks the last complete walk's tail again: its last page and whatever came after, kept under the
    /// walk `generation` and shown. A refused cursor is forgotten (the walk that follows finds the new
    /// photos); false when stopped.
    private nonisolated static func lookPastTail(
        _ tail: String, generation: Int64, catalogue: Catalogue, client: APIClient, clock: Timekeeper,
        deliver: @escaping @Sendable (BrowserReport) async -> Void
    ) async -> Bool {
        // The cursor the last page came with: the next look starts there, as a complete walk's does.
        var lastPageCursor = tail
        do {
            for try await page in PageStream<Photo>(client: client, startingAt: tail) {
                guard !Task.isCancelled else { return false }
                try await catalogue.save(tail: page.data, generation: generation, at: clock.now())
                await deliver(.catalogue(.photosArrived(page.data, nextCursor: nil)))
                if page.hasNextPage, let next = page.pagination.nextCursor { lastPageCursor = next }
            }
            if lastPageCursor != tail { try catalogue.saveTail(lastPageCursor) }
        } catch is InvalidCursorError {
            try? catalogue.saveTail(nil)
        } catch {
            if Task.isCancelled { return false }
        }
        return true
    }

    /// Photos a walk saves between two writes of the library file.
    nonisolated static let checkpointEvery = 100_000

    /// Queues a catalogue write after those before it; stopping waits for them rather than cancelling
    /// them, so a sent edit or a purge is in the catalogue the next photopick reads.
    func writeCatalogue(_ write: @escaping @Sendable (Catalogue) async throws -> Void) {
        let catalogue = catalogue
        let previous = catalogueWriter
        catalogueWriter = Task { [logger = configuration.logger] in
            await previous?.value
            do { try await write(catalogue) } catch { logger.error("catalogue: \(error)") }
        }
    }

    /// Keeps a focus score; one writer at a time writes the waiting scores in batches.
    func saveFocusScore(_ score: Double, photoID: Int) {
        focusToSave[photoID] = score
        guard focusWriter == nil else { return }
        focusWriter = Task {
            while !focusToSave.isEmpty {
                let batch = focusToSave.map { (photoID: $0.key, score: $0.value) }
                focusToSave = [:]
                do { try await catalogue.save(focusScores: batch) } catch { configuration.logger.error("catalogue: \(error)") }
            }
            focusWriter = nil
        }
    }
}
