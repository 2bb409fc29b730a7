import Hummingbird
import NIOCore
import NIOPosix

/// Injects the configured faults, reproducibly for a seed.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let injector: FaultInjector
    let latency: Duration
    let retryAfter: RetryAfter
    /// Seconds the injected 503 and 429 ask for.
    let retryAfterSeconds: Int
    let clock: ServerClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isFileBody = request.uri.path.hasPrefix("/files/")
        guard let fault = injector.fault(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query, isFileBody: isFileBody
        ) else {
            return try await next(request, context)
        }
        switch fault {
        case .internalError:
            throw APIFailure.internalError("Injected fault: internal error; retry with backoff")
        case .unavailable:
            throw APIFailure.unavailable("Injected fault: service unavailable; retry shortly", retryAfter: retryAfter.value(seconds: retryAfterSeconds))
        case .rateLimited:
            throw APIFailure.rateLimited("Injected fault: rate limited; wait for Retry-After", retryAfter: retryAfter.value(seconds: retryAfterSeconds))
        case .reset:
            // SO_LINGER 0 makes close() send RST: the client sees a reset before any response.
            if let socket = context.channel as? any SocketOptionProvider {
                try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            }
            try? await context.channel.close()
            throw ConnectionReset()
        case .truncate:
            var context = context
            context.truncatesFileBody = true
            return try await next(request, context)
        case .slow:
            try await clock.sleep(for: latency)
            return try await next(request, context)
        }
    }
}

/// Thrown after an injected reset has closed the connection; nothing more can be sent.
struct ConnectionReset: Error {}

/// How `Retry-After` is written: delta-seconds or an HTTP-date.
struct RetryAfter: Sendable {
    let asDate: Bool
    let clock: ServerClock

    func value(seconds: Int) -> String {
        asDate ? Timestamp.httpDate(clock.now() + Int64(seconds)) : String(seconds)
    }
}
