import Foundation
import NIOCore
@testable import PhotoPickKit
import Testing

/// The hand-written parser on the hot path agrees with the JSON grammar.
struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try JSONParser.parse(UnsafeRawBufferPointer($0)) }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5e1, true, false, null], "b": {"c": "d"}, "e": 9223372036854775807} "#)
        #expect(value == .object([
            "a": .array([.integer(1), .number(-25), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("d")]),
            "e": .integer(.max),
        ]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse(#""\ud800x""#) == .string("\u{FFFD}x"), "a lone surrogate is replaced")
        #expect(try parse("\"Žluťoučký 東京\"") == .string("Žluťoučký 東京"))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "\"open", "tru", "01x", "1 2", "\"a\u{01}b\"", "-", String(repeating: "[", count: 600)])
    func rejectsMalformedText(text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    @Test func aPageDecodesLikeFoundationDoes() throws {
        let json = #"{"data": [{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": "2024-06-01T14:03:22Z", "tagIds": [2], "width": 4000, "camera": {"make": "X", "model": "Y"}, "exposure": {"iso": 100, "fNumber": 2, "exposureTime": "1/250", "focalLength": 35}, "location": null, "rating": 5}], "pagination": {"nextCursor": "c2", "hasMore": true}}"#
        let response = RawResponse(status: 200, headers: [:], body: ByteBuffer(string: json), url: URL(string: "http://x/photos")!)
        let fast = try PhotoPageDecoder.decode(response)
        let foundation = try JSONDecoder().decode(Page<Photo>.self, from: Data(json.utf8))
        #expect(fast.data == foundation.data)
        #expect(fast.pagination == foundation.pagination)
        #expect(fast.data[0].exposure?.fNumber == 2 && fast.data[0].extra == ["rating": .integer(5)])
    }

    @Test func aPageWithoutDataIsADecodingError() {
        let response = RawResponse(status: 200, headers: [:], body: ByteBuffer(string: #"{"pagination": {"nextCursor": null, "hasMore": false}}"#),
                                   url: URL(string: "http://x/photos")!)
        #expect {
            try PhotoPageDecoder.decode(response)
        } throws: { error in
            guard case .decoding(let failure) = error as? APIError else { return false }
            return failure.path == "data"
        }
    }

    @Test func aBadPhotoNamesItsPathOnTheFastPathToo() {
        let json = #"{"data": [{"id": 1, "filename": "a.jpg", "bytes": 10, "takenAt": null, "tagIds": []}, {"id": 2, "filename": 3, "bytes": 1, "takenAt": null, "tagIds": []}], "pagination": {"nextCursor": null, "hasMore": false}}"#
        let response = RawResponse(status: 200, headers: [:], body: ByteBuffer(string: json), url: URL(string: "http://x/photos")!)
        #expect {
            try PhotoPageDecoder.decode(response)
        } throws: { error in
            guard case .decoding(let failure) = error as? APIError else { return false }
            return failure.path == "data[1].filename"
        }
    }
}
