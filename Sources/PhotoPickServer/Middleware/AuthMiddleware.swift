import Foundation
import Hummingbird
import NIOCore

/// Checks the bearer key, its IP allow-list and its rate budget, and stamps `X-RateLimit-*` on the answer.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let keys: KeyRing
    let rateLimiter: RateLimiter
    let retryAfter: RetryAfter
    let clock: ServerClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = try authenticate(request)
        let now = Int(clock.now())
        let source = context.channel.remoteAddress?.ipAddress ?? ""
        var response: Response
        if let allowed = key.spec.allowedIPs, !allowed.contains(source) {
            // Refused before it counts, but the caller still learns where its budget stands.
            response = try APIFailure(
                status: .forbidden, code: "ip_not_whitelisted",
                message: "This key may not be used from \(source); add the address to the key's allow-list"
            ).response(from: request, context: context)
        } else {
            let decision = rateLimiter.consume(keyID: key.id, now: now)
            if decision.isAllowed {
                var context = context
                context.apiKey = key
                do {
                    response = try await next(request, context)
                } catch {
                    // Every error, not only an APIFailure, so that its answer carries the budget too. No 405
                    // table: a request no route takes never reaches a group's middleware.
                    guard let failure = APIFailure.answering(error, to: request, methods: nil, logger: context.logger) else {
                        throw error
                    }
                    response = try failure.response(from: request, context: context)
                }
            } else {
                let wait = max(1, decision.reset - now)
                response = try APIFailure.rateLimited(
                    "Rate limit of \(decision.limit) requests per window reached; retry in \(wait) s",
                    retryAfter: retryAfter.value(seconds: wait)
                ).response(from: request, context: context)
            }
        }
        // Read after the handler, at the time it finished: with concurrent requests, and with a window that
        // may have turned meanwhile, the figures are the budget as it stands now.
        let budget = rateLimiter.peek(keyID: key.id, now: Int(clock.now()))
        response.headers[.rateLimitLimit] = String(budget.limit)
        response.headers[.rateLimitRemaining] = String(budget.remaining)
        response.headers[.rateLimitReset] = String(budget.reset)
        return response
    }

    private func authenticate(_ request: Request) throws -> APIKeyRecord {
        guard let header = request.headers[.authorization] else { throw APIFailure.missingKey }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIFailure.unauthorized("Malformed Authorization header: use Authorization: Bearer <key>")
        }
        guard let key = keys.record(for: parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw APIFailure.unauthorized("Unknown or deleted API key: check the key, or make one in Settings → API keys")
        }
        return key
    }
}
