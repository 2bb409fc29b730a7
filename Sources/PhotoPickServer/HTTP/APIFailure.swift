import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// A failure answered with the contract's error envelope:
/// `{"error": {"code": "...", "message": "...", "details": ...}}`.
struct APIFailure: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var details: JSONValue?
    var headers: HTTPFields = [:]

    private struct Envelope: Encodable {
        struct Body: Encodable {
            let code: String
            let message: String
            let details: JSONValue?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(code, forKey: .code)
                try container.encode(message, forKey: .message)
                try container.encode(details, forKey: .details)
            }

            enum CodingKeys: String, CodingKey { case code, message, details }
        }

        let error: Body
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONResponse.make(Envelope(error: .init(code: code, message: message, details: details)), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension APIFailure {
    struct Issue: Sendable {
        let field: String
        let message: String
    }

    static func validation(_ issues: [Issue]) -> APIFailure {
        let summary = issues.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        let list = JSONValue.array(issues.map { .object(["field": .string($0.field), "message": .string($0.message)]) })
        return APIFailure(status: .badRequest, code: "validation_failed", message: "Invalid request: \(summary)",
                          details: .object(["issues": list]))
    }

    static func validation(field: String, _ message: String) -> APIFailure {
        validation([Issue(field: field, message: message)])
    }

    static func unauthorized(_ message: String) -> APIFailure {
        APIFailure(status: .unauthorized, code: "unauthorized", message: message,
                   headers: [.wwwAuthenticate: "Bearer realm=\"PhotoPick\""])
    }

    static func scopeRequired(_ scope: Scope) -> APIFailure {
        APIFailure(status: .forbidden, code: "scope_required", message: "Missing required scope \(scope.rawValue)",
                   details: .object(["scope": .string(scope.rawValue)]))
    }

    static let missingKey = unauthorized("Missing API key: send Authorization: Bearer <key>")

    static func notFound(_ message: String) -> APIFailure {
        APIFailure(status: .notFound, code: "not_found", message: message)
    }

    /// `No such photo`, `No such tag`, ...: a resource that does not exist, or a path id that cannot name one.
    static func noSuch(_ what: String) -> APIFailure {
        notFound("No such \(what)")
    }

    /// 429, with the wait in `Retry-After` (written as `RetryAfter` says).
    static func rateLimited(_ message: String, retryAfter: String) -> APIFailure {
        APIFailure(status: .tooManyRequests, code: "rate_limited", message: message, headers: [.retryAfter: retryAfter])
    }

    /// 503, with the wait in `Retry-After` (written as `RetryAfter` says).
    static func unavailable(_ message: String, retryAfter: String) -> APIFailure {
        APIFailure(status: .serviceUnavailable, code: "service_unavailable", message: message, headers: [.retryAfter: retryAfter])
    }

    static let invalidCursor = APIFailure(
        status: .badRequest, code: "invalid_cursor",
        message: "The cursor is malformed or expired; restart the listing without a cursor"
    )

    static func internalError(_ message: String = "Internal server error; retry with backoff") -> APIFailure {
        APIFailure(status: .internalServerError, code: "internal_error", message: message)
    }
}

extension APIFailure {
    /// What any error thrown while answering `request` is answered with: an `APIFailure` as it is, a
    /// request no route took as `SystemRoutes.unrouted` says (with `methods` for 405s), anything else as a
    /// logged 500. Nil after an injected reset, which has closed the connection: nothing can be answered.
    static func answering(
        _ error: any Error, to request: Request, methods: SystemRoutes.MethodTable?, logger: Logger
    ) -> APIFailure? {
        switch error {
        case is ConnectionReset:
            return nil
        case let failure as APIFailure:
            return failure
        case let error as HTTPError where error.status == .notFound:
            return SystemRoutes.unrouted(request, methods: methods)
        default:
            logger.error("request failed", metadata: ["error": "\(error)"])
            return internalError()
        }
    }
}
