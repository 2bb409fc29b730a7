import Crypto
import Foundation
import Hummingbird

/// Opaque, signed keyset cursors: a tampered one is refused rather than silently misread.
struct CursorSigner: Sendable {
    enum Listing: String, Sendable {
        case photos, tags
    }

    /// Raw key bytes: `SymmetricKey` is not Sendable.
    let secret: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: secret) }

    func cursor(after id: Int64, in listing: Listing) -> String {
        let payload = Data("\(listing.rawValue):\(id)".utf8)
        return payload.base64URLEncoded + "." + Data(signature(payload)).base64URLEncoded
    }

    /// The id a cursor points after; throws `invalid_cursor` when it was not made here for this listing.
    func position(of cursor: String, in listing: Listing) throws -> Int64 {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Data(base64URLEncoded: parts[0]),
              let mac = Data(base64URLEncoded: parts[1]),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: key),
              let text = String(data: payload, encoding: .utf8), text.hasPrefix(listing.rawValue + ":"),
              let id = Int64(text.dropFirst(listing.rawValue.count + 1)), id >= 0
        else { throw APIFailure.invalidCursor }
        return id
    }

    private func signature(_ payload: Data) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: payload, using: key))
    }
}

/// `limit` and `cursor` of a list request, validated.
struct PageRequest: Sendable {
    static let defaultLimit = 50
    static let maximumLimit = 100

    let afterID: Int64
    let limit: Int
    private let listing: CursorSigner.Listing
    private let cursors: CursorSigner

    init(_ request: Request, listing: CursorSigner.Listing, cursors: CursorSigner) throws {
        self.listing = listing
        self.cursors = cursors
        let query = request.uri.queryParameters
        if let text = query["limit"].map(String.init) {
            guard let limit = Int(text), (1...Self.maximumLimit).contains(limit) else {
                throw APIFailure.validation(field: "limit", "must be an integer from 1 to \(Self.maximumLimit)")
            }
            self.limit = limit
        } else {
            limit = Self.defaultLimit
        }
        afterID = try query["cursor"].map { try cursors.position(of: String($0), in: listing) } ?? 0
    }
}

extension PageRequest {
    /// Answers with one page of `items`, fetched with `limit + 1` so the extra one tells whether more follow.
    func response<Item, Representation: Encodable>(
        _ items: [Item], id: (Item) -> Int64, represent: (Item) -> Representation
    ) throws -> Response {
        let shown = items.prefix(limit)
        let next = items.count > limit ? shown.last.map { cursors.cursor(after: id($0), in: listing) } : nil
        return try JSONResponse.make(JSONResponse.Page(data: shown.map(represent), nextCursor: next))
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncoded text: some StringProtocol) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard base64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }) else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
