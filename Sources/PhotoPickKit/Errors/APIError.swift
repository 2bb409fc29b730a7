import Foundation

/// Why a call failed: the server said no, or the answer never arrived, or it could not be read.
public enum APIError: UserFacingError, Sendable, CustomStringConvertible {
    /// The server answered with an error envelope (or at least an error status).
    case response(ErrorResponse)
    /// The connection failed or broke: refused, reset, closed early.
    case transport(host: String, reason: String)
    /// No answer within the timeout.
    case timeout(host: String, after: Duration)
    /// The answer did not match the contract.
    case decoding(DecodingFailure)
    /// The caller cancelled.
    case cancelled

    /// The HTTP status, when the server answered.
    public var status: Int? {
        if case .response(let response) = self { return response.status }
        return nil
    }

    /// The error code, when the server answered.
    public var code: Code? {
        if case .response(let response) = self { return response.code }
        return nil
    }

    /// The server's `X-Request-Id`, to quote in a support request.
    public var requestID: String? {
        switch self {
        case .response(let response): response.requestID
        case .decoding(let failure): failure.requestID
        case .transport, .timeout, .cancelled: nil
        }
    }

    /// The same line as `userMessage`.
    public var description: String { userMessage }
}

/// An error answer: status, code, message, details and request id.
public struct ErrorResponse: Sendable, Hashable {
    /// The HTTP status, such as 404.
    public let status: Int
    /// The error code, such as `not_found`; `unknown` when the body had none.
    public let code: APIError.Code
    /// The server's message, on one line.
    public let message: String
    /// `details` as sent; may be null or absent.
    public let details: JSONValue?
    /// The server's `X-Request-Id`, to quote in a support request.
    public let requestID: String?

    /// A signed file link refused because it expired or its signature no longer holds: ask for a new one.
    var isExpiredLink: Bool {
        status == 403 && [.urlExpired, .invalidSignature, .unknown].contains(code)
    }

    /// The tag a `409 conflict` on a tag name names, when the server says (`details.existingTagId`).
    public var existingTagID: Int? {
        details?["existingTagId"]?.integerValue.flatMap { Int(exactly: $0) }
    }
}

/// Where and why a response did not decode.
public struct DecodingFailure: Sendable, Hashable {
    /// The coding path of the bad value, such as `data[3].bytes`.
    public let path: String
    /// What was wrong with the value there.
    public let reason: String
    /// The server's `X-Request-Id`, to quote in a support request.
    public let requestID: String?

    init(_ error: DecodingError, requestID: String?) {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let value), .valueNotFound(_, let value), .dataCorrupted(let value): context = value
        case .keyNotFound(let key, let value):
            context = DecodingError.Context(codingPath: value.codingPath + [key], debugDescription: "missing required field")
        @unknown default: context = DecodingError.Context(codingPath: [], debugDescription: "\(error)")
        }
        path = Self.path(context.codingPath)
        reason = context.debugDescription
        self.requestID = requestID
    }

    init(path: String, reason: String, requestID: String?) {
        self.path = path
        self.reason = reason
        self.requestID = requestID
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}

extension APIError {
    /// An error code: the documented ones are static members; codes this code does not know survive as they came.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The code as the server wrote it, such as `not_found`.
        public let rawValue: String
        /// A code by its text, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A code by its text, known or not.
        public init(stringLiteral value: String) { rawValue = value }
        /// The code's text, such as `not_found`.
        public var description: String { rawValue }

        /// 400: a value was refused; `details.issues` may say which.
        public static let validationFailed: Code = "validation_failed"
        /// 400: a listing cursor was malformed, tampered with or expired; restart without one.
        public static let invalidCursor: Code = "invalid_cursor"
        /// 401: the key is missing, malformed, unknown or deleted.
        public static let unauthorized: Code = "unauthorized"
        /// 403: the key lacks a scope; `details.scope` names it.
        public static let scopeRequired: Code = "scope_required"
        /// 403: the key does not accept requests from this address.
        public static let ipNotWhitelisted: Code = "ip_not_whitelisted"
        /// 403: the plan lacks the feature; never retry.
        public static let tariffNotSupported: Code = "tariff_not_supported"
        /// 404: it does not exist, or belongs to another customer.
        public static let notFound: Code = "not_found"
        /// 409: another tag has that name; `details.existingTagId` may name it.
        public static let conflict: Code = "conflict"
        /// 413: the body is too large.
        public static let payloadTooLarge: Code = "payload_too_large"
        /// 415: the body is not `application/json`.
        public static let unsupportedMedia: Code = "unsupported_media"
        /// 429: the rate limit is used up; wait for the next window.
        public static let rateLimited: Code = "rate_limited"
        /// 500: the server failed; retry later and quote the request id.
        public static let internalError: Code = "internal_error"
        /// Ours: a signed file URL past its expiry.
        public static let urlExpired: Code = "url_expired"
        /// Ours: a signed file URL whose signature does not match.
        public static let invalidSignature: Code = "invalid_signature"
        /// Made by the client for an error status without a readable envelope.
        public static let unknown: Code = "unknown"
    }
}
