import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// What `E` and `photopick edit` turn a request into: per-photo field changes, templates numbered in
/// the order given, a field left alone untouched, and no two photos given one name.
@Suite struct EditRequestTests {
    // 2024-06-01T10:00:00Z and a day later, in UTC.
    let photos = [
        Sample.photo(1, "IMG_1.JPG", takenAt: 1_717_236_000, title: "Old"),
        Sample.photo(2, "img_2.jpeg", takenAt: 1_717_322_400),
        Sample.photo(3, "scan.tif"),
    ]

    @Test func aTemplateNumbersThePhotosInTheOrderGivenAndKeepsOtherFields() throws {
        let state = Sample.state(photos)
        let request = EditRequest(filename: "{taken:%Y%m%d}_{n:03}.{extension}")
        let changes = try state.changes(for: request, photoIDs: [2, 1, 3])
        let names = Dictionary(uniqueKeysWithValues: changes.map { ($0.photoID, $0.value) })
        #expect(changes.allSatisfy { $0.field == .filename })
        #expect(names[2]??.hasSuffix("_001.jpeg") == true)
        #expect(names[2]??.hasPrefix("2024060") == true)
        #expect(names[1]??.hasSuffix("_002.JPG") == true)
        #expect(names[3] == "undated_003.tif")
    }

    @Test func aTitleIsSetOrClearedAndAnUnchangedValueIsLeftOut() throws {
        let state = Sample.state(photos)
        let set = try state.changes(for: EditRequest(title: "Old"), photoIDs: [1, 2])
        #expect(set == [PhotoFieldChange(photoID: 2, field: .title, value: "Old")])
        let cleared = try state.changes(for: EditRequest(title: ""), photoIDs: [1, 2])
        #expect(cleared == [PhotoFieldChange(photoID: 1, field: .title, value: nil)])
    }

    @Test func oneNameForManyPhotosOrATemplateThatCollidesIsRefusedNamingThePhotos() {
        let state = Sample.state(photos + [Sample.photo(4, "img_1.jpg")])
        #expect(throws: EditRequest.Problem.self) { try state.changes(for: EditRequest(filename: "same.jpg"), photoIDs: [1, 2]) }
        #expect(throws: EditRequest.Problem.self) { try state.changes(for: EditRequest(filename: "  "), photoIDs: [1]) }
        do {
            _ = try state.changes(for: EditRequest(filename: "{rating}x.jpg"), photoIDs: [1, 2])
            Issue.record("a template that names two photos alike was accepted")
        } catch {
            #expect(error.description.contains("photos 1 and 2"))
        }
        do {
            _ = try state.changes(for: EditRequest(filename: "{filename}"), photoIDs: [1, 4])
            Issue.record("names differing only in case were accepted")
        } catch {
            #expect(error.description.contains("photos 1 and 4"))
        }
        #expect((try? state.changes(for: EditRequest(filename: "{id}_{filename}"), photoIDs: [1, 4]))?.count == 2)
    }

    @Test func aShiftMovesEveryDatedPhotoAndLeavesAnUndatedOneAlone() throws {
        var state = Sample.state(photos)
        let changes = try state.changes(for: EditRequest(adjustment: .shift(seconds: -3_600)), photoIDs: [1, 2, 3])
        #expect(changes.map(\.photoID) == [1, 2])
        #expect(changes.first?.value == "2024-06-01T09:00:00Z")
        _ = state.apply(.browsing(.sortChosen(.captureTime)))
        _ = state.apply(.edits(.photosEdited([PhotoFieldChange(photoID: 2, field: .takenAt, value: "2020-01-01T00:00:00Z")])))
        #expect(state.list.libraryIndices.first.map { state.library.id(at: $0) } == 2, "the list follows the new capture time at once")
        _ = state.apply(.undoRequested)
        #expect(state.list.libraryIndices.first.map { state.library.id(at: $0) } == 1, "undo puts it back")
        #expect(state.unsentPhotoEdits == 1, "the undo is the photo's latest wish, folded into one entry")
    }

    @Test func templateNumbersPadToTheirWidth() throws {
        #expect(PhotoTemplate.number(7, width: "03") == "007")
        #expect(PhotoTemplate.number(1234, width: "03") == "1234")
        #expect(PhotoTemplate.number(7, width: nil) == "7")
        #expect(throws: PhotoTemplate.Problem.self) { try PhotoTemplate("{n:x}") }
        #expect(throws: PhotoTemplate.Problem.self) { try PhotoTemplate("{title:03}") }
    }
}
