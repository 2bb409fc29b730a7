import Foundation
@testable import PhotoPickKit
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

    @Test func aMissingDocumentedFieldNamesItsPath() throws {
        let json = #"{"data": [{"id": 1, "filename": "a.jpg", "takenAt": null, "tagIds": []}], "pagination": {"nextCursor": null, "hasMore": false}}"#
        let raw = RawResponse(status: 200, headers: [:], body: .init(string: json), url: URL(string: "http://x/photos")!)
        #expect {
            try raw.decodeJSON(Page<Photo>.self)
        } throws: { error in
            guard case .decoding(let failure) = error as? APIError else { return false }
            return failure.path == "data[0].bytes"
        }
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
