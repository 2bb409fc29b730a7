import AsyncHTTPClient
import Foundation
import NIOHTTP1

extension APIClient {
    /// Statuses worth another try: the server was busy or failed, the request was not at fault.
    static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]

    /// Sends `request` through the pacer, retrying per the policy; returns the first 2xx or 3xx answer.
    ///
    /// Non-idempotent requests are retried only after a 429, which the server refuses before doing
    /// anything, unless the request says a repeat is safe to resolve (`retriesAmbiguousFailures`).
    /// `package` so photopick-bench's `decode` can time decoding on page bodies as they came.
    package nonisolated func perform<Response>(_ request: Request<Response>) async throws(APIError) -> RawResponse {
        var wasAmbiguous = false
        return try await perform(request, wasAmbiguous: &wasAmbiguous)
    }

    /// The one retry path of every request: each try waits for the pacer, a failed one waits for the
    /// server's `Retry-After` (seconds or HTTP-date) or the backoff, whichever is longer. `wasAmbiguous`
    /// is set when a try failed in a way that may have applied it, so a POST's caller can tell a conflict
    /// with itself from a real one.
    nonisolated func perform<Response>(_ request: Request<Response>, wasAmbiguous: inout Bool) async throws(APIError) -> RawResponse {
        let url = request.url(relativeTo: baseURL)
        let policy = configuration.retryPolicy
        let deadline = time.elapsed() + policy.deadline
        var attempt = 0
        while true {
            attempt += 1
            let outcome = try await attemptOnce(request, url: url, deadline: deadline)
            let wait: Duration
            switch outcome {
            case .answer(let response):
                return response
            case .failed(let error, let isRetryable, let advised):
                if error.isAmbiguous { wasAmbiguous = true }
                guard isRetryable, attempt < policy.maximumAttempts else { throw error }
                wait = max(advised ?? .zero, policy.backoff(afterAttempt: attempt))
                guard time.elapsed() + wait < deadline else { throw error }
            }
            try await time.sleepOrCancel(for: wait)
        }
    }

    enum AttemptOutcome {
        case answer(RawResponse)
        /// `advised` is the server's `Retry-After` (or reset) for this request, when it gave one.
        case failed(APIError, isRetryable: Bool, advised: Duration?)
    }

    /// One paced try, classified.
    nonisolated func attemptOnce<Response>(
        _ request: Request<Response>, url: URL, deadline: Duration
    ) async throws(APIError) -> AttemptOutcome {
        let remaining = deadline - time.elapsed()
        // Storage on another origin (a signed file URL) does not count against the API's budget.
        let isPaced = isPaced(url)
        do {
            if isPaced { try await pacer.admit(lane: RequestLane.current, deadline: time.now().addingTimeInterval(remaining.timeInterval)) }
        } catch let hold as RateLimitPacer.HoldOutlastsDeadline {
            throw .response(ErrorResponse(
                status: 429, code: .rateLimited,
                message: "requests are held for the rate limit until \(hold.until.formatted(date: .omitted, time: .standard)), past this call's deadline",
                details: nil, requestID: nil
            ))
        } catch {
            throw .cancelled
        }
        let http: HTTPClientRequest
        do {
            http = try await httpRequest(request.method.rawValue, url, body: request.body, headers: request.headers)
        } catch {
            if isPaced { await pacer.recordNoResponse() }
            throw error
        }
        let response: RawResponse
        do {
            response = try await executeOnce(http, url: url)
        } catch {
            if isPaced { await pacer.recordNoResponse() }
            if case .cancelled = error.error { throw error.error }
            return .failed(error.error, isRetryable: error.isRetryable && (request.isIdempotent || request.retriesAmbiguousFailures), advised: nil)
        }
        if isPaced {
            await pacer.record(status: response.status, headers: response.headers)
        } else if response.status == 429 {
            await pacer.holdAfterRefusal(headers: response.headers)  // storage refused: hold everyone, as downloads do
        }
        if let sunset = response.headers.first(name: "Sunset") { await noteSunset(sunset, path: request.path) }
        if response.isSuccess || (300..<400).contains(response.status) { return .answer(response) }
        let error = APIError.response(await errorResponse(from: response))
        let isRetryable = Self.retryableStatuses.contains(response.status)
            && (request.isIdempotent || response.status == 429 || request.retriesAmbiguousFailures)
            && error.code != .tariffNotSupported
        // After a 429 the pacer holds everyone until the reset; this request then waits its turn like the rest.
        let advised = response.status == 429 && isPaced ? nil : RetryAdvice.wait(in: response.headers, orReset: !isPaced, now: time.now())
        return .failed(error, isRetryable: isRetryable, advised: advised)
    }

    /// Requests below the API's base URL count against its budget; storage elsewhere does not.
    nonisolated func isPaced(_ url: URL) -> Bool {
        Origin(url) == baseOrigin && url.path.hasPrefix(baseURL.path)
    }

    /// The error envelope of a response, tolerating a missing or malformed one; the key is scrubbed from it.
    nonisolated func errorResponse(from response: RawResponse) async -> ErrorResponse {
        struct Envelope: Decodable {
            struct Body: Decodable {
                let code: String?
                let message: String?
                let details: JSONValue?
            }
            let error: Body
        }
        var body = String(decoding: response.body.readableBytesView, as: UTF8.self)
        if let key = try? await currentKey(), !key.secret.isEmpty {
            // Whatever the server echoes (message or details), the key does not travel on in an error.
            body = body.replacingOccurrences(of: key.secret, with: "[redacted]")
        }
        let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body.utf8))
        let message = envelope?.error.message ?? HTTPResponseStatus(statusCode: response.status).reasonPhrase
        return ErrorResponse(
            status: response.status, code: envelope?.error.code.map(APIError.Code.init(rawValue:)) ?? .unknown,
            message: message.oneLine, details: envelope?.error.details, requestID: response.requestID
        )
    }
}

extension Timekeeper {
    /// Sleeps for `duration`, or throws `APIError.cancelled` when the task is cancelled first.
    func sleepOrCancel(for duration: Duration) async throws(APIError) {
        do {
            try await sleep(for: duration)
        } catch {
            throw .cancelled
        }
    }
}
