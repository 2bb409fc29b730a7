import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Builds JSON responses.
enum JSONResponse {
    /// One for every response: its options are fixed, and encoding keeps no state between calls.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// `{"data": [...], "pagination": {"nextCursor": ..., "hasMore": ...}}`
    struct Page<Item: Encodable>: Encodable {
        let data: [Item]
        let nextCursor: String?

        private struct Pagination: Encodable {
            let nextCursor: String?
            let hasMore: Bool

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(nextCursor, forKey: .nextCursor)
                try container.encode(hasMore, forKey: .hasMore)
            }

            enum CodingKeys: String, CodingKey { case nextCursor, hasMore }
        }

        enum CodingKeys: String, CodingKey { case data, pagination }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(data, forKey: .data)
            try container.encode(Pagination(nextCursor: nextCursor, hasMore: nextCursor != nil), forKey: .pagination)
        }
    }
}
