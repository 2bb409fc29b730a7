import Foundation
import PhotoPickKit

/// Sends the tag outbox: first the tags its deltas wait for (`TagSender+Creation.swift`), then for each
/// photo it takes the server's current tags, applies that photo's deltas and writes the result, so a
/// change made elsewhere meanwhile is kept. `OutboxPump` runs it, with the edits' sender, in one loop.
///
/// The current tags are read first unless the catalogue saw them within `freshness` (a page of the
/// walk, an earlier read or write): then the write goes alone, one request instead of two, so tagging
/// 1,000 photos just listed costs 1,000 requests, not 2,000. The risk, taken knowingly: a change made
/// elsewhere to the same photo within that window is overwritten, since `PUT` replaces the whole set and
/// the API has no validator to make it conditional. Zero freshness always reads.
struct TagSender: OutboxSender {
    let client: APIClient
    let outbox: TagOutbox
    var catalogue: Catalogue
    let freshness: Duration
    let clock: Timekeeper

    func nextBatch() throws -> [TagDelta] { try outbox.nextBatch(photos: 64) }

    /// Makes the next chunk of the oldest bulk into deltas when fewer than a batch wait, and reports what
    /// it made; nil unless the state database failed, which is why.
    func expandBulk(report: @Sendable (BrowserReport) async -> Void) async -> String? {
        do {
            guard try outbox.waitingDeltas() < 16, let made = try outbox.expandNextBulk(count: 256) else { return nil }
            await report(.tags(.tagBulkExpanded(sequence: made.bulk, expanded: made.expanded, deltas: made.deltas)))
            return nil
        } catch {
            return "the state database cannot be written (\(error))."
        }
    }
    func photoID(of delta: TagDelta) -> Int { delta.photoID }
    func sequence(of delta: TagDelta) -> Int64 { delta.sequence }

    func courier(for batch: [TagDelta]) async -> @Sendable (Int, [TagDelta]) async -> Delivery<[Int]> {
        let photoIDs = Array(Set(batch.map(\.photoID)))
        let now = clock.now()
        let known = freshness > .zero
            ? (try? catalogue.tags(ofPhotos: photoIDs, seenSince: now.addingTimeInterval(-(freshness / .seconds(1))))) ?? [:]
            : [:]
        return { [client, catalogue, clock] photoID, deltas in
            await Self.send(deltas, of: photoID, known: known[photoID], client: client, catalogue: catalogue, clock: clock)
        }
    }

    func settle(_ deltas: [TagDelta], of photoID: Int, _ delivery: Delivery<[Int]>) throws -> BrowserReport? {
        let sequences = deltas.map(\.sequence)
        switch delivery {
        case .sent(let serverTagIDs):
            try outbox.remove(sequences)
            return .tags(.tagDeltasSent(photoID: photoID, sequences: sequences, serverTagIDs: serverTagIDs))
        case .rejected(let reason):
            try outbox.remove(sequences)
            return .tags(.tagDeltasRejected(photoID: photoID, sequences: sequences, reason: reason))
        case .delayed, .cancelled:
            return nil
        }
    }

    func delayed(_ reason: String) -> BrowserReport {
        .tags(.tagSendingDelayed(reason: reason))
    }

    /// Read (unless `known` is fresh), apply, write for one photo; what the server says goes into the catalogue.
    private static func send(
        _ deltas: [TagDelta], of photoID: Int, known: [Int]?, client: APIClient, catalogue: Catalogue, clock: Timekeeper
    ) async -> Delivery<[Int]> {
        do {
            let current: [Int]
            if let known {
                current = known
            } else {
                current = try await client.send(API.photoTags(id: photoID)).tags.map(\.id)
                try? await catalogue.save(tagIDs: current, ofPhoto: photoID, at: clock.now())
            }
            let wanted = deltas.reduce(current) { $1.applied(to: $0) }
            // A replay after a crash may find its change already made; nothing needs writing then.
            guard Set(wanted) != Set(current) else { return .sent(current) }
            let written = try await client.send(API.replacePhotoTags(id: photoID, tagIDs: wanted))
            try? await catalogue.save(tagIDs: written.tagIds, ofPhoto: photoID, at: clock.now())
            return .sent(written.tagIds)
        } catch {
            return Delivery(failure: error)
        }
    }
}
