import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// The edit outbox keeps one wish per photo and field, with the value seen before the first; a sent
/// edit makes its written value the one a later wish for the field counts as seen.
@Suite struct EditOutboxTests {
    private func withOutbox(_ body: (EditOutbox) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("EditOutboxTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(EditOutbox(database: try StateDatabase(directory: directory), library: "test"))
    }

    @Test func aLaterWishReplacesTheEarlierAndKeepsWhatWasSeenBeforeIt() throws {
        try withOutbox { outbox in
            try outbox.record([PhotoEdit(sequence: 1, photoID: 7, field: .title, value: "B", seen: "A")])
            try outbox.record([PhotoEdit(sequence: 2, photoID: 7, field: .title, value: "C", seen: "B")])
            let batch = try outbox.nextBatch(photos: 10)
            #expect(batch == [PhotoEdit(sequence: 2, photoID: 7, field: .title, value: "C", seen: "A")])
        }
    }

    @Test func sendingAnEditRebasesTheWishMadeWhileItWasOnItsWay() throws {
        try withOutbox { outbox in
            let sent = PhotoEdit(sequence: 1, photoID: 7, field: .title, value: "B", seen: "A")
            try outbox.record([sent, PhotoEdit(sequence: 3, photoID: 7, field: .filename, value: "x.jpg", seen: "a.jpg")])
            // While B is on its way the user types C: the same row, a newer sequence.
            try outbox.record([PhotoEdit(sequence: 2, photoID: 7, field: .title, value: "C", seen: "B")])
            var written = Photo(id: 7, filename: "a.jpg", bytes: 1, takenAt: nil, tagIDs: [])
            written.title = "B"
            // B's sequence is gone from the table already (replaced by C): settling removes nothing of C's.
            try outbox.settle([sent], written: written)
            let left = try outbox.nextBatch(photos: 10).sorted { $0.sequence < $1.sequence }
            #expect(left.map(\.value) == ["C", "x.jpg"])
            #expect(left.first { $0.field == .title }?.seen == "B", "C now counts B, the user's own, as seen")
            #expect(left.first { $0.field == .filename }?.seen == "a.jpg", "another field keeps its own")
            try outbox.removeAll(photoIDs: [7])
            #expect(try outbox.nextBatch(photos: 10).isEmpty)
        }
    }
}
