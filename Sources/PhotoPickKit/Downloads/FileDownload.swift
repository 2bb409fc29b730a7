import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOPosix

/// One download, from choosing the name to renaming the verified file into place.
struct FileDownload {
    let client: APIClient
    let photo: Photo
    let size: DownloadSize
    let format: DownloadFormat
    let directory: DownloadDirectory
    let name: SafeFilename
    let progress: (@Sendable (DownloadProgress) -> Void)?
    /// Told of the file just before it is renamed into place; a failure there keeps the partial file.
    let willPlace: (@Sendable (WrittenFile) async throws -> Void)?
    /// Which of the name's candidates this download writes; the earlier ones were taken when it started.
    var candidateNumber: Int
    var partName: String
    let part: PartFile
    /// `GET /photos/{id}/download`, asked without following its redirect, so that a server answering
    /// with the bytes themselves is streamed like any file.
    let endpoint: URL
    /// Where the bytes come from: the API's download endpoint at first, then the signed URL it redirects
    /// to; back to the endpoint when that expires.
    var location: URL
    var refreshes = 0
    var redirects = 0
    var restarts = 0
    var hasher = SHA256()
    var hashedBytes: Int64 = 0
    var serverDigest: [UInt8]?
    var hasCheckedTakenNames = false
    var resumedFrom: Int64 = 0

    static let maximumRefreshes = 3
    static let maximumRedirects = 5
    static let maximumRestarts = 3

    mutating func run() async throws -> DownloadResult {
        resumedFrom = part.length
        if let length = completePart() {
            // Killed after the last byte but before the rename: the bytes are all here and verified.
            return try await finish(length: length)
        }
        if size == .original, format == .original { try checkSpace(needed: photo.bytes - resumedFrom) }
        let policy = client.configuration.retryPolicy
        let time = client.time
        var deadline = time.elapsed() + policy.deadline
        // Only failed tries count: following a redirect, refreshing a link or starting over is not failing.
        var failures = 0
        while true {
            let lengthBefore = part.length
            do {
                if let length = try await transfer() { return try await finish(length: length) }
            } catch let failure as RetryableFailure {
                // A try that added bytes is progress, not failure, so only empty tries count toward the limit;
                // the deadline bounds a server that trickles.
                if part.length > lengthBefore {
                    failures = 1
                    refreshes = 0
                    deadline = time.elapsed() + policy.deadline
                } else {
                    failures += 1
                }
                let attempt = failures
                let wait = max(failure.advised ?? .zero, policy.backoff(afterAttempt: max(attempt, 1)))
                guard attempt < policy.maximumAttempts, time.elapsed() + wait < deadline else {
                    if part.length == 0 { directory.remove(partName) }
                    throw failure.error
                }
                try await time.sleepOrCancel(for: wait)
            } catch let skipped as SkippedIdentical {
                directory.remove(partName)
                return skipped.result
            } catch {
                if part.length == 0 { directory.remove(partName) }  // nothing to resume: leave no empty .part behind
                throw error
            }
        }
    }

    /// A failure worth another try, resuming from the bytes already written.
    struct RetryableFailure: Error {
        let error: APIError
        let advised: Duration?
    }

    /// An identical file is already there.
    struct SkippedIdentical: Error {
        let result: DownloadResult
    }

    /// One request for the missing bytes. Returns the complete length, or nil to go again at once
    /// (after a refreshed link or a restart from zero).
    private mutating func transfer() async throws -> Int64? {
        let location = self.location
        let response = try await request(location)
        let file = FileHeaders(headers: response.headers)
        guard let total = try await acceptStatus(response, file, from: location) else { return nil }
        if response.status.code == 416 {
            // The whole file is here already (see `acceptStatus`): nothing to receive, only to verify.
            _ = try? await response.body.collect(upTo: 1 << 20)
            serverDigest = serverDigest ?? part.digest
            if hashedBytes != part.length { rehash() }
            return part.length
        }
        if let digest = file.sha256 {
            serverDigest = digest
            part.digest = digest  // kept beside the bytes, so a partial found whole later verifies without asking
        }
        try checkTakenNames(total: total)
        if let total { try checkSpace(needed: total - part.length) }
        if response.status.code == 200 { part.validator = file.validator }
        if hashedBytes != part.length { rehash() }
        try await receive(response.body, total: total)
        let length = part.length
        if let total, length < total {
            throw RetryableFailure(error: .transport(host: location.host ?? "", reason: "the file broke off"), advised: nil)
        }
        if let total, length > total {
            try restart()
            return nil
        }
        return length
    }

    /// Sends the GET for the bytes, with a range when some are already here. Requests to the API's own
    /// origin go through the pacer like every other call.
    private func request(_ location: URL) async throws -> HTTPClientResponse {
        let isPaced = client.isPaced(location)
        if isPaced {
            do {
                try await client.pacer.admit(lane: RequestLane.current)
            } catch {
                throw APIError.cancelled
            }
        }
        do {
            let response = try await send(location)
            if isPaced { await client.pacer.record(status: Int(response.status.code), headers: response.headers) }
            return response
        } catch {
            if isPaced { await client.pacer.recordNoResponse() }
            throw error
        }
    }

    private func send(_ location: URL) async throws -> HTTPClientResponse {
        var headers = [("Accept", "*/*")]
        let offset = part.length
        if offset > 0, let validator = part.validator {
            headers += [("Range", "bytes=\(offset)-"), ("If-Range", validator)]
        }
        let request = try await client.httpRequest("GET", location, headers: headers)
        let started = client.time.elapsed()
        do {
            let response = try await client.httpClient.execute(request, deadline: .distantFuture)
            client.log("GET", location, status: Int(response.status.code), since: started, requestID: response.headers.first(name: "X-Request-Id"))
            return response
        } catch {
            throw retryable(TransportFailure(error, url: location, readTimeout: client.configuration.timeouts.read))
        }
    }

    /// Checks the status against what was asked. Returns the whole file's length (`.some(nil)` when
    /// unknown), or nil to go again at once.
    private mutating func acceptStatus(_ response: HTTPClientResponse, _ file: FileHeaders, from url: URL) async throws -> Int64?? {
        switch response.status.code {
        case 200:
            // The whole file, as asked or because the range no longer applies: start over (not a failure).
            if part.length > 0 { try restart(counted: false) }
            return .some(file.contentLength)
        case 206:
            guard let range = file.contentRange, range.first == part.length else {
                try restart()
                return nil
            }
            return .some(range.total)
        case 301, 302, 303, 307, 308:
            // Storage may redirect again; the key still goes only to the API's origin (see `httpRequest`).
            guard redirects < Self.maximumRedirects, let target = response.headers.first(name: "Location"),
                  let next = URL(string: target, relativeTo: url)?.absoluteURL
            else { throw DownloadError.unusableResponse("the storage redirected too often or without a Location") }
            redirects += 1
            location = next
            return nil
        case 416:
            // `bytes */N` with N the partial's length: the file is whole, kept from a run stopped before the
            // rename; it is finished when it verifies. Otherwise the partial no longer fits: start over.
            if let total = file.contentRange?.total, total == part.length, isVerifiable(length: total) {
                return .some(total)
            }
            try restart()
            return nil
        default:
            try await handleFailureStatus(response, from: url)
            return nil
        }
    }

    /// The partial's length when it already holds the whole file: its bytes hash to the server's digest
    /// kept beside them. Nil when it does not, or nothing says what the whole file is.
    private mutating func completePart() -> Int64? {
        guard part.length > 0, part.validator != nil, let expected = part.digest else { return nil }
        rehash()
        guard hashedBytes == part.length, Array(hasher.finalize()) == expected else { return nil }
        serverDigest = expected
        return part.length
    }

    /// Whether a partial of `length` bytes can be checked as the whole file: against the server's digest
    /// kept beside it, or (for an original, with no digest) against the photo's size.
    private func isVerifiable(length: Int64) -> Bool {
        if part.digest != nil { return true }  // `finish` compares the hash
        return size == .original && format == .original && length == photo.bytes
    }

    /// Streams the body to disk, hashing as it goes, as fast as the disk takes it.
    private mutating func receive(_ body: HTTPClientResponse.Body, total: Int64?) async throws {
        var received = part.length
        do {
            for try await chunk in body {
                try part.append(chunk)
                chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                hashedBytes += Int64(chunk.readableBytes)
                received += Int64(chunk.readableBytes)
                progress?(DownloadProgress(photoID: photo.id, receivedBytes: received, expectedBytes: total))
            }
        } catch let error as DownloadError {
            throw error
        } catch {
            throw retryable(TransportFailure(error, url: location, readTimeout: client.configuration.timeouts.read))
        }
    }

    /// A non-success answer: an expired link is refreshed, a retryable status is retried, the rest thrown.
    private mutating func handleFailureStatus(_ response: HTTPClientResponse, from url: URL) async throws {
        let body = (try? await response.body.collect(upTo: 1 << 20)) ?? ByteBuffer()
        let raw = RawResponse(status: Int(response.status.code), headers: response.headers, body: body, url: url)
        let error = await client.errorResponse(from: raw)
        let isStorage = url.path != endpoint.path
        if isStorage, error.isExpiredLink {
            guard refreshes < Self.maximumRefreshes else { throw APIError.response(error) }
            refreshes += 1
            redirects = 0
            location = endpoint
            return
        }
        if raw.status == 429, !client.isPaced(url) {
            await client.pacer.holdAfterRefusal(headers: response.headers)  // the API's own 429s were recorded already
        }
        if APIClient.retryableStatuses.contains(raw.status) {
            throw RetryableFailure(error: .response(error), advised: RetryAdvice.wait(in: response.headers, orReset: raw.status == 429, now: client.time.now()))
        }
        throw APIError.response(error)
    }

    /// Skips the download when a taken name already holds exactly these bytes, as the server's digest says.
    private mutating func checkTakenNames(total: Int64?) throws {
        guard !hasCheckedTakenNames else { return }
        hasCheckedTakenNames = true
        guard let total, let serverDigest, let taken = earlierName(holding: total, digest: serverDigest) else { return }
        throw SkippedIdentical(result: result(.skippedIdentical, taken, bytes: total))
    }

    /// The earlier candidate name that already holds exactly these bytes, if any.
    func earlierName(holding length: Int64, digest: [UInt8]) -> String? {
        (1..<candidateNumber).map(name.candidate).first { directory.holds($0, length: length, digest: digest) }
    }

    private func checkSpace(needed: Int64) throws(DownloadError) {
        guard needed > 0, let available = directory.freeSpace(), available < needed else { return }
        throw .insufficientSpace(directory: directory.url.path, needed: needed, available: available)
    }

    private mutating func restart(counted: Bool = true) throws {
        restarts += counted ? 1 : 0
        guard restarts <= Self.maximumRestarts else {
            throw DownloadError.unusableResponse("the server kept answering ranges that do not fit the partial file")
        }
        try part.reset()
        hasher = SHA256()
        hashedBytes = 0
        resumedFrom = 0
    }

    /// Hashes the bytes kept from before, so the digest covers the whole file.
    private mutating func rehash() {
        hasher = SHA256()
        hashedBytes = directory.hash(partName, into: &hasher) ? part.length : 0
    }

    private func retryable(_ failure: TransportFailure) -> any Error {
        if case .cancelled = failure.error { return failure.error }
        return failure.isRetryable ? RetryableFailure(error: failure.error, advised: nil) : failure.error
    }

    func result(_ outcome: DownloadResult.Outcome, _ name: String, bytes: Int64) -> DownloadResult {
        DownloadResult(outcome: outcome, fileURL: URL(fileURLWithPath: directory.path(name)), bytes: bytes, resumedFrom: resumedFrom)
    }
}
