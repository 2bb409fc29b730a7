import Foundation
@testable import PhotoPickKit
import PhotoPickFormats
import Testing

/// Photos decode tolerantly: documented fields required, ours optional, unknown ones kept raw.
struct PhotoDecodingTests {
    private func decode(_ json: String) throws -> Photo {
        try JSONDecoder().decode(Photo.self, from: Data(json.utf8))
    }

    @Test func keepsUnknownFieldsAsRawJSON() throws {
        let photo = try decode(#"{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": null, "tagIds": [], "rating": 4, "album": {"name": "Trip"}}"#)
        #expect(photo.extra["rating"] == .integer(4))
        #expect(photo.extra["album"] == .object(["name": .string("Trip")]))
        #expect(photo.takenAt == nil)
    }

    @Test func documentedFieldsAloneAreEnough() throws {
        let photo = try decode(#"{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": "2024-06-01T14:03:22Z", "tagIds": [3]}"#)
        #expect(photo.width == nil && photo.camera == nil && photo.exposure == nil && photo.extra.isEmpty)
        #expect(photo.takenAt == Date(timeIntervalSince1970: 1_717_250_602))
    }

    @Test func ourFieldOfAnUnexpectedTypeMovesToExtraInsteadOfFailing() throws {
        let photo = try decode(#"{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": null, "tagIds": [], "width": "wide", "lens": 35}"#)
        #expect(photo.width == nil)
        #expect(photo.extra["width"] == .string("wide"))
        #expect(photo.extra["lens"] == .integer(35))
    }

    @Test(arguments: [
        // Missing.
        (#"[{"id": 1, "filename": "a.jpg", "takenAt": null, "tagIds": []}]"#, "data[0].bytes"),
        // Mistyped, in the second photo.
        (#"[{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": null, "tagIds": []}, {"id": 2, "filename": 3, "bytes": 1, "takenAt": null, "tagIds": []}]"#, "data[1].filename"),
    ])
    func aMissingOrMistypedDocumentedFieldNamesItsPath(photos: String, path: String) {
        let json = #"{"data": "# + photos + #", "pagination": {"nextCursor": null, "hasMore": false}}"#
        let raw = RawResponse(status: 200, headers: [:], body: .init(string: json), url: URL(string: "http://x/photos")!)
        #expect {
            try raw.decodeJSON(Page<Photo>.self)
        } throws: { error in
            guard case .decoding(let failure) = error as? APIError else { return false }
            return failure.path == path
        }
    }

    @Test func aMalformedTakenAtNamesItsPathAndWhatItFound() {
        #expect {
            try decode(#"{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": "yesterday", "tagIds": []}"#)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["takenAt"] && context.debugDescription.contains("yesterday")
        }
    }

    @Test func everyOptionalFieldOfTheWrongShapeIsKeptRaw() throws {
        let photo = try decode(#"{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": null, "tagIds": [], "createdAt": "soon", "camera": "Leica", "exposure": {"iso": "high"}, "location": {"latitude": 50}, "title": null, "description": ["x"]}"#)
        #expect(photo.createdAt == nil && photo.camera == nil && photo.exposure == nil && photo.location == nil && photo.description == nil)
        #expect(photo.extra == [
            "createdAt": .string("soon"), "camera": .string("Leica"), "exposure": .object(["iso": .string("high")]),
            "location": .object(["latitude": .integer(50)]), "description": .array([.string("x")]),
        ])
        #expect(photo.title == nil, "null is no value, not a wrong shape")
    }

    @Test func aFullPhotoDecodesEveryField() throws {
        let photo = try decode(#"{"id": 7, "filename": "b.jpg", "bytes": 12, "takenAt": "2024-06-01T14:03:22Z", "tagIds": [2, 5], "createdAt": "2024-06-02T00:00:00Z", "width": 4000, "height": 3000, "mimeType": "image/jpeg", "camera": {"make": "X", "model": "Y"}, "lens": "35mm", "exposure": {"iso": 100, "fNumber": 2, "exposureTime": "1/250", "focalLength": 35}, "location": {"latitude": 50.1, "longitude": 14.4}, "title": "T", "description": "D", "rating": 5}"#)
        #expect(photo.tagIDs == [2, 5] && photo.width == 4000 && photo.height == 3000 && photo.mimeType == "image/jpeg")
        #expect(photo.camera == Photo.Camera(make: "X", model: "Y") && photo.lens == "35mm")
        #expect(photo.exposure == Photo.Exposure(iso: 100, fNumber: 2, exposureTime: "1/250", focalLength: 35))
        #expect(photo.location == Photo.Location(latitude: 50.1, longitude: 14.4) && photo.title == "T" && photo.description == "D")
        #expect(photo.createdAt == Date(timeIntervalSince1970: 1_717_286_400) && photo.extra == ["rating": .integer(5)])
    }

    @Test(arguments: [
        ("2024-06-01T14:03:22Z", 1_717_250_602.0),
        ("2024-06-01T14:03:22.250Z", 1_717_250_602.25),
        ("2024-06-01T16:03:22+02:00", 1_717_250_602.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
    ])
    func parsesISO8601WithAndWithoutFractions(text: String, seconds: Double) {
        #expect(ISO8601.date(from: text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["2024-06-01", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-06-01T14:99:00Z", "2024-06-01T14:03:22"])
    func rejectsMalformedDates(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test func customerFieldsAreAllOptional() throws {
        let customer = try JSONDecoder().decode(Customer.self, from: Data(#"{"plan": "pro"}"#.utf8))
        #expect(customer.name == nil && customer.extra["plan"] == .string("pro"))
    }
}
