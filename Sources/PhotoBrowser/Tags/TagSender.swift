import Foundation
import PhotoPickKit

/// Sends the outbox: first the tags its deltas wait for (`TagSender+Creation.swift`), then for each photo
/// it takes the server's current tags, applies that photo's deltas and writes the result, so a change
/// made elsewhere meanwhile is kept. Deltas leave the outbox only once the server has confirmed them, or
/// refused them for good.
///
/// The current tags are read first unless the catalogue saw them within `freshness` (a page of the
/// walk, an earlier read or write): then the write goes alone, one request instead of two, so tagging
/// 1,000 photos just listed costs 1,000 requests, not 2,000. The risk, taken knowingly: a change made
/// elsewhere to the same photo within that window is overwritten, since `PUT` replaces the whole set and
/// the API has no validator to make it conditional. Zero freshness always reads.
actor TagSender {
    let client: APIClient
    let outbox: TagOutbox
    private(set) var catalogue: Catalogue
    private let freshness: Duration
    let report: @Sendable (BrowserEvent) async -> Void
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    /// Photos written at once; the client's pacer spaces them further when the budget runs low.
    private let width = 4

    init(
        client: APIClient, outbox: TagOutbox, catalogue: Catalogue, freshness: Duration,
        report: @escaping @Sendable (BrowserEvent) async -> Void
    ) {
        self.client = client
        self.outbox = outbox
        self.catalogue = catalogue
        self.freshness = freshness
        self.report = report
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Keeps tags in another catalogue, after the first was set aside.
    func use(_ catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    /// Says there is something new in the outbox.
    nonisolated func nudge() {
        nudger.yield()
    }

    /// What became of one photo's deltas.
    enum Outcome: Sendable {
        case sent(serverTagIDs: [Int])
        case rejected(String)
        /// Worth trying again later: the network, the server or the budget said not now.
        case delayed(String)
        case cancelled
    }

    /// Sends until cancelled, waiting for a nudge whenever the outbox is empty and backing off while
    /// the server cannot be reached.
    func run() async {
        await OutboxPump.run(nudges: nudges) {
            let creationDelayed = await createPendingTags()
            if Task.isCancelled { return .idle }
            let batch: [TagDelta]
            do { batch = try outbox.nextBatch(photos: 64) } catch { return .unreadable(String(describing: error)) }
            if batch.isEmpty && creationDelayed == nil { return .idle }
            return .sent(delayed: batch.isEmpty ? creationDelayed : await send(batch) ?? creationDelayed)
        } delayed: { reason in
            await report(.tagSendingDelayed(reason: reason))
        }
    }

    /// Sends one batch, a few photos at a time; returns a reason when any photo has to wait.
    private func send(_ batch: [TagDelta]) async -> String? {
        let photos = Dictionary(grouping: batch, by: \.photoID).sorted { $0.value[0].sequence < $1.value[0].sequence }
        let known = freshness > .zero
            ? (try? catalogue.tags(ofPhotos: photos.map(\.key), seenSince: Date().addingTimeInterval(-(freshness / .seconds(1))))) ?? [:]
            : [:]
        let catalogue = catalogue
        var delayed: String?
        await withTaskGroup(of: (Int, [TagDelta], Outcome).self) { group in
            var next = photos.makeIterator()
            for _ in 0..<width {
                guard let (photoID, deltas) = next.next() else { break }
                group.addTask { [client] in
                    (photoID, deltas, await Self.send(deltas, of: photoID, known: known[photoID], client: client, catalogue: catalogue))
                }
            }
            for await (photoID, deltas, outcome) in group {
                let sequences = deltas.map(\.sequence)
                switch outcome {
                case .sent(let serverTagIDs):
                    try? outbox.remove(sequences)
                    await report(.tagDeltasSent(photoID: photoID, sequences: sequences, serverTagIDs: serverTagIDs))
                case .rejected(let reason):
                    try? outbox.remove(sequences)
                    await report(.tagDeltasRejected(photoID: photoID, sequences: sequences, reason: reason))
                case .delayed(let reason):
                    delayed = reason
                case .cancelled:
                    return
                }
                if delayed == nil, let (photoID, deltas) = next.next() {
                    group.addTask { [client] in
                        (photoID, deltas, await Self.send(deltas, of: photoID, known: known[photoID], client: client, catalogue: catalogue))
                    }
                }
            }
        }
        return delayed
    }

    /// Read (unless `known` is fresh), apply, write for one photo; what the server says goes into the catalogue.
    private static func send(_ deltas: [TagDelta], of photoID: Int, known: [Int]?, client: APIClient, catalogue: Catalogue) async -> Outcome {
        do {
            let current: [Int]
            if let known {
                current = known
            } else {
                current = try await client.send(API.photoTags(id: photoID)).tags.map(\.id)
                try? await catalogue.save(tagIDs: current, ofPhoto: photoID)
            }
            let wanted = deltas.reduce(current) { $1.applied(to: $0) }
            // A replay after a crash may find its change already made; nothing needs writing then.
            guard Set(wanted) != Set(current) else { return .sent(serverTagIDs: current) }
            let written = try await client.send(API.replacePhotoTags(id: photoID, tagIDs: wanted))
            try? await catalogue.save(tagIDs: written.tagIds, ofPhoto: photoID)
            return .sent(serverTagIDs: written.tagIds)
        } catch {
            return outcome(of: error)
        }
    }

    /// Refusals that no retry can change end the deltas; everything else keeps them for later.
    static func outcome(of error: APIError) -> Outcome {
        switch error {
        case .cancelled:
            return .cancelled
        case .response(let response) where response.status == 404:
            return .rejected("the photo no longer exists.")
        case .response(let response) where response.code == .unauthorized || response.code == .ipNotWhitelisted:
            return .delayed(error.userMessage)
        case .response(let response) where (400..<500).contains(response.status) && response.status != 429 && response.status != 408:
            return .rejected(error.userMessage)
        default:
            return .delayed(error.userMessage)
        }
    }
}
