import Foundation
import PhotoPickKit

/// Sends the edit outbox: for each photo it reads the server's current fields, notes those changed
/// elsewhere since the user saw them (the user's edit still wins, and the screen says so), and writes
/// the wished values in one `PATCH`. A replay after a crash that finds its values already there writes
/// nothing. Edits leave the outbox only once the server has confirmed them, or refused them for good.
actor EditSender {
    let client: APIClient
    let outbox: EditOutbox
    let report: @Sendable (BrowserEvent) async -> Void
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    /// Photos written at once; the client's pacer spaces them further when the budget runs low.
    private let width = 4

    init(client: APIClient, outbox: EditOutbox, report: @escaping @Sendable (BrowserEvent) async -> Void) {
        self.client = client
        self.outbox = outbox
        self.report = report
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Says there is something new in the outbox.
    nonisolated func nudge() {
        nudger.yield()
    }

    /// What became of one photo's edits.
    enum Outcome: Sendable {
        /// Written; `photo` is the server's answer, `overwritten` the fields someone else had changed.
        case sent(photo: Photo, overwritten: [PhotoField])
        case rejected(String)
        case delayed(String)
        case cancelled
    }

    /// Sends until cancelled, waiting for a nudge whenever the outbox is empty and backing off while
    /// the server cannot be reached.
    func run() async {
        await OutboxPump.run(nudges: nudges) {
            let batch: [PhotoEdit]
            do { batch = try outbox.nextBatch(photos: 64) } catch { return .unreadable(String(describing: error)) }
            return batch.isEmpty ? .idle : .sent(delayed: await send(batch))
        } delayed: { reason in
            await report(.photoEditSendingDelayed(reason: reason))
        }
    }

    /// Sends one batch, a few photos at a time; returns a reason when any photo has to wait.
    private func send(_ batch: [PhotoEdit]) async -> String? {
        let photos = Dictionary(grouping: batch, by: \.photoID).sorted { $0.value[0].sequence < $1.value[0].sequence }
        var delayed: String?
        await withTaskGroup(of: (Int, [PhotoEdit], Outcome).self) { group in
            var next = photos.makeIterator()
            for _ in 0..<width {
                guard let (photoID, edits) = next.next() else { break }
                group.addTask { [client] in (photoID, edits, await Self.send(edits, of: photoID, client: client)) }
            }
            for await (photoID, edits, outcome) in group {
                let sequences = edits.map(\.sequence)
                switch outcome {
                case .sent(let photo, let overwritten):
                    do {
                        try outbox.settle(edits, written: photo)
                    } catch {
                        // Still in the outbox: sent again later, which finds it done and writes nothing.
                        delayed = "the state database cannot be written (\(error))."
                        continue
                    }
                    await report(.photoEditsSent(photoID: photoID, sequences: sequences, photo: photo, overwritten: overwritten))
                case .rejected(let reason):
                    do {
                        try outbox.remove(sequences)
                    } catch {
                        delayed = "the state database cannot be written (\(error))."
                        continue
                    }
                    await report(.photoEditsRejected(photoID: photoID, sequences: sequences, reason: reason))
                case .delayed(let reason):
                    delayed = reason
                case .cancelled:
                    return
                }
                if delayed == nil, let (photoID, edits) = next.next() {
                    group.addTask { [client] in (photoID, edits, await Self.send(edits, of: photoID, client: client)) }
                }
            }
        }
        return delayed
    }

    /// Read, compare, write for one photo.
    private static func send(_ edits: [PhotoEdit], of photoID: Int, client: APIClient) async -> Outcome {
        do {
            let current = try await client.send(API.photo(id: photoID))
            let overwritten = edits.filter { edit in
                let now = edit.field.value(of: current)
                return now != edit.seen && now != edit.value
            }.map(\.field)
            let needed = edits.filter { $0.field.value(of: current) != $0.value }
            guard !needed.isEmpty else { return .sent(photo: current, overwritten: []) }
            let written = try await client.send(API.updatePhoto(id: photoID, PhotoUpdate(needed)))
            return .sent(photo: written, overwritten: overwritten)
        } catch {
            switch TagSender.outcome(of: error) {
            case .rejected(let reason): return .rejected(reason)
            case .delayed(let reason): return .delayed(reason)
            case .cancelled, .sent: return .cancelled
            }
        }
    }
}
