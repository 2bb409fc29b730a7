import Foundation
import Hummingbird
import NIOCore

/// Reads a JSON request body the way the contract demands: 415, 413 and 400 before any handler logic.
enum JSONBody {
    static let maximumLength = 64 * 1024

    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request) async throws -> Body {
        guard let contentType = request.headers[.contentType], isJSON(contentType) else {
            throw APIFailure(status: .unsupportedMediaType, code: "unsupported_media",
                             message: "Send the body as JSON with Content-Type: application/json")
        }
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maximumLength {
            throw tooLarge
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumLength)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
        do {
            return try decoder.decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIFailure.validation([issue(for: error)])
        }
    }

    /// One for every body: a decoder keeps no state between calls.
    private static let decoder = JSONDecoder()

    private static let tooLarge = APIFailure(status: .contentTooLarge, code: "payload_too_large",
                                             message: "The body is over 64 KiB; send a smaller one")

    private static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    private static func issue(for error: DecodingError) -> APIFailure.Issue {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "body" : text.replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return .init(field: path(context, key), message: "is required")
        case .typeMismatch(let type, let context): return .init(field: path(context), message: "must be \(describe(type))")
        case .valueNotFound(let type, let context): return .init(field: path(context), message: "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? .init(field: "body", message: "is not valid JSON")
                : .init(field: path(context), message: context.debugDescription)
        @unknown default: return .init(field: "body", message: "is not valid")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int64.Type, is Int.Type: "an integer"
        // A value that is not an array is reported as `[Any]`, not as the array type asked for.
        case is [Int64].Type, is [Any].Type: "an array of integers"
        default: "an object"
        }
    }
}

/// Decodes a nullable field whose absence means "unchanged".
extension KeyedDecodingContainer {
    func decodeUpdate<Value: Decodable & Sendable & Equatable>(_ type: Value.Type, forKey key: Key) throws -> FieldUpdate<Value> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .set(nil) }
        return .set(try decode(Value.self, forKey: key))
    }
}
