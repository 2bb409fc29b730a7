import Foundation
import NIOHTTP1

/// What a file response's headers say about the bytes.
struct FileHeaders {
    let headers: HTTPHeaders

    /// `Repr-Digest: sha-256=:<base64>:` (RFC 9530), decoded; nil when absent or unreadable.
    var sha256: [UInt8]? {
        guard let field = headers.first(name: "Repr-Digest") else { return nil }
        for member in field.split(separator: ",") {
            let parts = member.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "sha-256" else { continue }
            let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: ": "))
            if let data = Data(base64Encoded: value), data.count == 32 { return Array(data) }
        }
        return nil
    }

    /// `bytes first-last/total` or `bytes */total`.
    var contentRange: (first: Int64?, total: Int64?)? {
        guard let field = headers.first(name: "Content-Range"), field.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = field.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard spec.count == 2 else { return nil }
        let total = Int64(spec[1].trimmingCharacters(in: .whitespaces))
        let first = spec[0] == "*" ? nil : spec[0].split(separator: "-").first.flatMap { Int64($0) }
        return (first, total)
    }

    var contentLength: Int64? {
        headers.first(name: "Content-Length").flatMap { Int64($0) }
    }

    /// A validator `If-Range` may use: a strong `ETag`, else `Last-Modified`.
    var validator: String? {
        if let etag = headers.first(name: "ETag"), !etag.hasPrefix("W/") { return etag }
        return headers.first(name: "Last-Modified")
    }
}
