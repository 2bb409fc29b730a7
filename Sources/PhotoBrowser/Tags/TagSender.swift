import Foundation
import PhotoPickKit

/// Sends the outbox: for each photo it reads the server's current tags, applies that photo's deltas in
/// order and writes the result, so a change made elsewhere meanwhile is kept. Deltas leave the outbox
/// only once the server has confirmed them, or refused them for good.
actor TagSender {
    private let client: APIClient
    private let outbox: TagOutbox
    private let report: @Sendable (BrowserEvent) async -> Void
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    /// Photos written at once; the client's pacer spaces them further when the budget runs low.
    private let width = 4

    init(client: APIClient, outbox: TagOutbox, report: @escaping @Sendable (BrowserEvent) async -> Void) {
        self.client = client
        self.outbox = outbox
        self.report = report
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
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
        var backoff = Duration.seconds(1)
        var iterator = nudges.makeAsyncIterator()
        while !Task.isCancelled {
            let batch: [TagDelta]
            do {
                batch = try outbox.nextBatch(photos: 64)
            } catch {
                await report(.tagSendingDelayed(reason: "the state database cannot be read (\(error))."))
                try? await Task.sleep(for: .seconds(5))
                continue
            }
            if batch.isEmpty {
                guard await iterator.next() != nil else { return }
                continue
            }
            let delayed = await send(batch)
            if Task.isCancelled { return }
            if let delayed {
                await report(.tagSendingDelayed(reason: delayed))
                // Edits made meanwhile wait in the outbox and go with the next batch, after the backoff.
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(60))
            } else {
                backoff = .seconds(1)
            }
        }
    }

    /// Sends one batch, a few photos at a time; returns a reason when any photo has to wait.
    private func send(_ batch: [TagDelta]) async -> String? {
        let photos = Dictionary(grouping: batch, by: \.photoID).sorted { $0.value[0].sequence < $1.value[0].sequence }
        var delayed: String?
        await withTaskGroup(of: (Int, [TagDelta], Outcome).self) { group in
            var next = photos.makeIterator()
            for _ in 0..<width {
                guard let (photoID, deltas) = next.next() else { break }
                group.addTask { [client] in (photoID, deltas, await Self.send(deltas, of: photoID, client: client)) }
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
                    group.addTask { [client] in (photoID, deltas, await Self.send(deltas, of: photoID, client: client)) }
                }
            }
        }
        return delayed
    }

    /// Read, apply, write for one photo.
    private static func send(_ deltas: [TagDelta], of photoID: Int, client: APIClient) async -> Outcome {
        do {
            let current = try await client.send(API.photoTags(id: photoID)).tags.map(\.id)
            let wanted = deltas.reduce(current) { $1.applied(to: $0) }
            // A replay after a crash may find its change already made; nothing needs writing then.
            guard Set(wanted) != Set(current) else { return .sent(serverTagIDs: current) }
            let written = try await client.send(API.replacePhotoTags(id: photoID, tagIDs: wanted))
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
