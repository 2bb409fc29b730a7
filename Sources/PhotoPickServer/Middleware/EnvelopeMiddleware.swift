import Foundation
import HTTPTypes
import Hummingbird

/// Outermost: tags every response with `X-Request-Id`, turns every error into the envelope, and logs one line.
struct EnvelopeMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let requestLog: (@Sendable (String) -> Void)?
    /// What a request's time is measured by.
    let clock: ServerClock
    /// For a 405 with `Allow` on a known path; nil where no path answers more than one way (the files origin).
    let methods: SystemRoutes.MethodTable?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = clock.elapsed()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            guard let failure = APIFailure.answering(error, to: request, methods: methods, logger: context.logger) else {
                requestLog?("\(request.method) \(request.uri.path) reset \(milliseconds(since: started))ms")
                throw error
            }
            response = try failure.response(from: request, context: context)
        }
        response.headers[.requestID] = Self.makeRequestID()
        requestLog?("\(request.method) \(request.uri.path) \(response.status.code) \(milliseconds(since: started))ms")
        return response
    }

    private func milliseconds(since start: Duration) -> Int {
        let elapsed = clock.elapsed() - start
        return Int((Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000).rounded())
    }

    private static func makeRequestID() -> String {
        "req_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
    static let rateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    static let rateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    static let rateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
    static let reprDigest = HTTPField.Name("Repr-Digest")!
    static let sunset = HTTPField.Name("Sunset")!
    static let deprecation = HTTPField.Name("Deprecation")!
}
