import Foundation
@testable import PhotoPickServer
import PhotoPickFormats
import Testing

/// Pure logic: ranges, dates, keys, fault lists, dispositions, cursors and URL signatures.
struct ParsingTests {
    @Test func byteRanges() {
        #expect(ByteRange(header: nil, length: 1000) == .whole)
        #expect(ByteRange(header: "bytes=0-99", length: 1000) == .partial(0...99))
        #expect(ByteRange(header: "bytes=900-5000", length: 1000) == .partial(900...999))
        #expect(ByteRange(header: "bytes=990-", length: 1000) == .partial(990...999))
        #expect(ByteRange(header: "bytes=-10", length: 1000) == .partial(990...999))
        #expect(ByteRange(header: "bytes=-5000", length: 1000) == .partial(0...999))
        #expect(ByteRange(header: "bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0", length: 1000) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=5-2", length: 1000) == .whole)
        #expect(ByteRange(header: "bytes=0-1,5-6", length: 1000) == .whole)
        #expect(ByteRange(header: "items=0-1", length: 1000) == .whole)
        #expect(ByteRange(header: "bytes=abc", length: 1000) == .whole)
    }

    @Test func datesRoundTripAndRefuseRollover() {
        #expect(ISO8601.string(seconds: 1_717_250_602) == "2024-06-01T14:03:22Z")
        #expect(Timestamp.httpDate(1_717_250_602) == "Sat, 01 Jun 2024 14:03:22 GMT")
        #expect(ISO8601.seconds(from: "2024-06-01T14:03:22Z") == 1_717_250_602)
        #expect(ISO8601.seconds(from: "2024-06-01T16:03:22.987+02:00") == 1_717_250_602)
        #expect(ISO8601.seconds(from: "2024-02-29T00:00:00Z") != nil)
        for bad in ["2023-02-29T00:00:00Z", "2024-01-01T12:99:00Z", "2024-13-01T00:00:00Z", "2024-06-01T14:03:22",
                    "2024-06-01 14:03:22Z", "", "2024-06-01T14:03:22.Z", "2024-06-01T14:03:22+2:00"] {
            #expect(ISO8601.seconds(from: bad) == nil, "\(bad)")
        }
    }

    @Test func keySpecs() throws {
        let full = try KeySpec(parsing: "pp_test_demo")
        #expect(full.scopes == Set(Scope.allCases))
        #expect(full.allowedIPs == nil)
        let limited = try KeySpec(parsing: "pp_test_reader=photos:read,tags:read@127.0.0.1,::1")
        #expect(limited.key == "pp_test_reader")
        #expect(limited.scopes == [.photosRead, .tagsRead])
        #expect(limited.allowedIPs == ["127.0.0.1", "::1"])
        for bad in ["pp_live_realkey", "pp_test_", "pp_test_x y", "pp_test_demo=photos:fly"] {
            #expect(throws: ServerError.self) { try KeySpec(parsing: bad) }
        }
        #expect("errors never echo the key") {
            _ = try KeySpec(parsing: "pp_test_secretpart=nope")
        } throws: { error in
            !String(describing: error).contains("secretpart") && String(describing: error).contains("nope")
        }
    }

    @Test func faultLists() throws {
        #expect(try FaultKind.parseList("500, reset,truncate") == [.internalError, .reset, .truncate])
        #expect(throws: ServerError.self) { try FaultKind.parseList("500,explode") }
        #expect(throws: ServerError.self) { try FaultKind.parseList("") }
    }

    @Test func contentDispositionIsSafeForHostileNames() {
        let header = ContentDisposition.attachment(filename: "../a\"b\\c\u{1B}[1m ř.jpg")
        #expect(header == #"attachment; filename="../a_b_c_[1m _.jpg"; filename*=UTF-8''..%2Fa%22b%5Cc%1B%5B1m%20%C5%99.jpg"#)
    }

    @Test func cursorsAndFileSignaturesRejectTampering() throws {
        let cursors = CursorSigner(secret: Array(repeating: 7, count: 32))
        let cursor = cursors.cursor(after: 42, in: .photos)
        #expect(try cursors.position(of: cursor, in: .photos) == 42)
        #expect(throws: APIFailure.self) { try cursors.position(of: cursor, in: .tags) }
        let other = CursorSigner(secret: Array(repeating: 8, count: 32))
        #expect(throws: APIFailure.self) { try other.position(of: cursor, in: .photos) }

        let signer = FileURLSigner(secret: Array(repeating: 1, count: 32), lifetime: .seconds(300))
        let path = signer.path(photoID: 5, variant: .web, now: 1000)
        let query = Dictionary(uniqueKeysWithValues: path.split(separator: "?")[1].split(separator: "&").map {
            let pair = $0.split(separator: "=")
            return (String(pair[0]), String(pair[1]))
        })
        #expect(query["expires"] == "1300")
        #expect(signer.verify(photoID: 5, variant: .web, expires: query["expires"], signature: query["signature"], now: 1299) == .valid)
        #expect(signer.verify(photoID: 5, variant: .web, expires: query["expires"], signature: query["signature"], now: 1300) == .expired)
        #expect(signer.verify(photoID: 5, variant: .fhd, expires: query["expires"], signature: query["signature"], now: 1000) == .invalid)
        #expect(signer.verify(photoID: 5, variant: .web, expires: "9999", signature: query["signature"], now: 1000) == .invalid)
    }

    @Test func variantsNeverUpscale() {
        #expect(ImageVariant.web.dimensions(width: 4000, height: 3000) == (1024, 768))
        #expect(ImageVariant.fhd.dimensions(width: 3000, height: 4000) == (1440, 1920))
        #expect(ImageVariant.a4.dimensions(width: 800, height: 600) == (800, 600))
        #expect(ImageVariant.original.dimensions(width: 4000, height: 3000) == (4000, 3000))
    }
}
