import Foundation
import NIOCore
import NIOHTTP1

/// A whole response as it came off the wire, before it is turned into a value or an error.
/// `package`, with `body`, so photopick-bench's `decode` can time decoding on real bodies.
package struct RawResponse: Sendable {
    let status: Int
    let headers: HTTPHeaders
    /// The body, read whole.
    package let body: ByteBuffer
    /// The URL that was asked, for resolving a relative `Location`.
    let url: URL

    var requestID: String? { headers.first(name: "X-Request-Id") }
    var isSuccess: Bool { (200..<300).contains(status) }

    /// Where a redirect points, resolved against the URL asked.
    func redirectTarget() throws(APIError) -> URL {
        guard let location = headers.first(name: "Location"), let url = URL(string: location, relativeTo: url) else {
            throw .decoding(DecodingFailure(
                path: "Location", reason: "a \(status) redirect without a usable Location header", requestID: requestID
            ))
        }
        return url.absoluteURL
    }

    func decodeJSON<Value: Decodable>(_ type: Value.Type) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.decoding(DecodingFailure(error, requestID: requestID))
        }
    }
}
