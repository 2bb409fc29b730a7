import Foundation
import PhotoPickKit

/// Sends the edit outbox: for each photo it reads the server's current fields, notes those changed
/// elsewhere since the user saw them (the user's edit still wins, and the screen says so), and writes
/// the wished values in one `PATCH`. A replay after a crash that finds its values already there writes
/// nothing. `OutboxPump` runs it, with the tags' sender, in one loop.
struct EditSender: OutboxSender {
    let client: APIClient
    let outbox: EditOutbox

    /// The server's copy after the write, and the fields someone else had changed.
    struct Written: Sendable {
        let photo: Photo
        let overwritten: [PhotoField]
    }

    func nextBatch() throws -> [PhotoEdit] { try outbox.nextBatch(photos: 64) }
    func photoID(of edit: PhotoEdit) -> Int { edit.photoID }
    func sequence(of edit: PhotoEdit) -> Int64 { edit.sequence }

    func courier(for batch: [PhotoEdit]) async -> @Sendable (Int, [PhotoEdit]) async -> Delivery<Written> {
        { [client] photoID, edits in await Self.send(edits, of: photoID, client: client) }
    }

    func settle(_ edits: [PhotoEdit], of photoID: Int, _ delivery: Delivery<Written>) throws -> BrowserReport? {
        let sequences = edits.map(\.sequence)
        switch delivery {
        case .sent(let written):
            try outbox.settle(edits, written: written.photo)
            return .edits(.photoEditsSent(photoID: photoID, sequences: sequences, photo: written.photo, overwritten: written.overwritten))
        case .rejected(let reason):
            try outbox.remove(sequences)
            return .edits(.photoEditsRejected(photoID: photoID, sequences: sequences, reason: reason))
        case .delayed, .cancelled:
            return nil
        }
    }

    func delayed(_ reason: String) -> BrowserReport {
        .edits(.photoEditSendingDelayed(reason: reason))
    }

    /// Read, compare, write for one photo.
    private static func send(_ edits: [PhotoEdit], of photoID: Int, client: APIClient) async -> Delivery<Written> {
        do {
            let current = try await client.send(API.photo(id: photoID))
            let overwritten = edits.filter { edit in
                let now = edit.field.value(of: current)
                return now != edit.seen && now != edit.value
            }.map(\.field)
            let needed = edits.filter { $0.field.value(of: current) != $0.value }
            guard !needed.isEmpty else { return .sent(Written(photo: current, overwritten: [])) }
            let written = try await client.send(API.updatePhoto(id: photoID, PhotoUpdate(needed)))
            return .sent(Written(photo: written, overwritten: overwritten))
        } catch {
            return Delivery(failure: error)
        }
    }
}
