import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

extension APIClient {
    /// The largest JSON answer read into memory.
    static let maximumJSONBytes = 32 << 20

    /// Builds the HTTP request for `url`; the key goes only to the API's own origin.
    nonisolated func httpRequest(
        _ method: String, _ url: URL, body: Data? = nil, headers extraHeaders: [(String, String)] = []
    ) async throws(APIError) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        if Origin(url) == baseOrigin, let key = try await currentKey() {
            request.headers.add(name: "Authorization", value: "Bearer \(key.secret)")
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        for (name, value) in extraHeaders { request.headers.replaceOrAdd(name: name, value: value) }
        return request
    }

    nonisolated func currentKey() async throws(APIError) -> APIKey? {
        do {
            return try await configuration.apiKey.key()
        } catch {
            throw .transport(host: "the API key provider", reason: "cannot read the API key: \(error)")
        }
    }

    /// One try: sends and reads the whole answer, whatever its status.
    nonisolated func executeOnce(_ request: HTTPClientRequest, url: URL) async throws(TransportFailure) -> RawResponse {
        let started = time.elapsed()
        do {
            let response = try await httpClient.execute(request, deadline: .distantFuture)
            let body = try await response.body.collect(upTo: Self.maximumJSONBytes)
            let raw = RawResponse(status: Int(response.status.code), headers: response.headers, body: body, url: url)
            log(request.method.rawValue, url, status: raw.status, since: started, requestID: raw.requestID)
            return raw
        } catch {
            let failure = TransportFailure(error, url: url, readTimeout: configuration.timeouts.read)
            configuration.logger.notice("\(request.method.rawValue) \(Redaction.url(url)) failed: \(failure.error.userMessage)")
            throw failure
        }
    }

    nonisolated func log(_ method: String, _ url: URL, status: Int, since started: Duration, requestID: String?) {
        let milliseconds = (time.elapsed() - started).milliseconds
        let level: Logger.Level = status >= 500 ? .warning : status >= 400 ? .info : .debug
        configuration.logger.log(level: level, "\(method) \(Redaction.url(url)) \(status) \(milliseconds) ms\(requestID.map { " id \($0)" } ?? "")")
    }
}

/// Scheme, host and port: the unit the key must never leave.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}

/// A failed exchange, classified: which `APIError` it is and whether trying again could help.
struct TransportFailure: Error {
    let error: APIError
    /// True for a reset, an early close or a timeout; false for a refused connection or a bad URL.
    let isRetryable: Bool

    init(_ error: any Error, url: URL, readTimeout: Duration) {
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
        if let error = error as? APIError {
            self.error = error
            isRetryable = false
            return
        }
        if error is CancellationError || (error as? HTTPClientError) == .cancelled {
            self.error = .cancelled
            isRetryable = false
            return
        }
        if let error = error as? HTTPClientError, error == .readTimeout || error == .deadlineExceeded {
            self.error = .timeout(host: host, after: readTimeout)
            isRetryable = true
            return
        }
        let text = String(describing: error)
        let reason: String
        switch error {
        case let error as HTTPClientError where error == .remoteConnectionClosed: reason = "the connection closed early"
        case let error as HTTPClientError where error == .connectTimeout: reason = "connecting timed out"
        case let error as IOError where [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode): reason = "the connection was reset"
        case is HTTPParserError: reason = "the answer broke off"
        case is NIOTooManyBytesError:
            // Not a transient failure: the same answer would be just as large the next time.
            self.error = .transport(host: host, reason: "the answer is larger than \(APIClient.maximumJSONBytes >> 20) MB")
            isRetryable = false
            return
        default:
            let refused = text.contains("ECONNREFUSED") || text.localizedCaseInsensitiveContains("connection refused")
            self.error = .transport(host: host, reason: refused ? "connection refused" : text.oneLine)
            isRetryable = !refused && !(error is HTTPClientError)
            return
        }
        self.error = .transport(host: host, reason: reason)
        isRetryable = true
    }
}
