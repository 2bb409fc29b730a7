import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOPosix

/// One download, from choosing the name to renaming the verified file into place.
struct FileDownload {
    private let client: APIClient
    private let photo: Photo
    private let size: DownloadSize
    private let format: DownloadFormat
    private let directory: DownloadDirectory
    private let name: SafeFilename
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    /// Candidate names already taken, which may hold an identical file.
    private var takenNames: [String] = []
    private var candidateNumber = 1
    private var partName: String
    /// The signed URL the bytes come from; refreshed when it expires.
    var location: URL?
    private var refreshes = 0
    private var hasher = SHA256()
    private var hashedBytes: Int64 = 0
    private var hasCheckedTakenNames = false
    private var isDigestVerified = false

    static let maximumRefreshes = 3

    init(
        client: APIClient, photo: Photo, size: DownloadSize, format: DownloadFormat, directory: URL,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) throws(DownloadError) {
        self.client = client
        self.photo = photo
        self.size = size
        self.format = format
        self.directory = try DownloadDirectory(directory)
        self.name = SafeFilename(serverName: photo.filename, photoID: photo.id, mimeType: photo.mimeType, size: size, format: format)
        self.progress = progress
        while self.directory.entry(name.candidate(candidateNumber)) != nil, candidateNumber < 10_000 {
            takenNames.append(name.candidate(candidateNumber))
            candidateNumber += 1
        }
        partName = name.candidate(candidateNumber) + SafeFilename.partSuffix
    }

    mutating func run() async throws -> DownloadResult {
        let part = try directory.openPart(partName, truncate: false)
        if part.length > 0, part.validator == nil {
            // Without a validator there is no telling whether the bytes still match the server's file.
            try part.reset()
        }
        let resumedFrom = part.length
        if size == .original, format == .original { try checkSpace(needed: photo.bytes - resumedFrom) }
        if location == nil { location = try await client.send(API.downloadLocation(id: photo.id, size: size, format: format)) }
        let policy = client.configuration.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            let lengthBefore = part.length
            do {
                if let length = try await transfer(into: part) {
                    return try await finish(part, length: length, resumedFrom: resumedFrom)
                }
            } catch let failure as RetryableFailure {
                // A try that added bytes is progress, not failure: like curl and aria2, only empty tries count.
                if part.length > lengthBefore { attempt = 0 }
                guard attempt < policy.maximumAttempts else { throw failure.error }
                do {
                    try await Task.sleep(for: max(failure.advised ?? .zero, policy.backoff(afterAttempt: attempt)))
                } catch {
                    throw APIError.cancelled
                }
            } catch let skipped as SkippedIdentical {
                directory.remove(partName)
                return skipped.result
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
    private mutating func transfer(into part: PartFile) async throws -> Int64? {
        guard let location else { return nil }
        let offset = part.length
        var headers = [("Accept", "*/*")]
        if offset > 0, let validator = part.validator {
            headers += [("Range", "bytes=\(offset)-"), ("If-Range", validator)]
        }
        let request = try await client.httpRequest("GET", location, headers: headers)
        let started = ContinuousClock.now
        let response: HTTPClientResponse
        do {
            response = try await client.httpClient.execute(request, deadline: .distantFuture)
        } catch {
            throw retryable(TransportFailure(error, url: location, readTimeout: client.configuration.timeouts.read))
        }
        client.log("GET", location, status: Int(response.status.code), since: started, requestID: response.headers.first(name: "X-Request-Id"))
        let file = FileHeaders(headers: response.headers)
        let total: Int64?
        switch response.status.code {
        case 200:
            if offset > 0 { try restart(part) }
            total = file.contentLength
        case 206:
            guard let range = file.contentRange, range.first == offset else {
                try restart(part)
                return nil
            }
            total = range.total
        case 416:
            guard let range = file.contentRange, range.total == offset, offset > 0 else {
                try restart(part)
                return nil
            }
            return offset
        default:
            try await refuse(response, from: location)
            return nil
        }
        try checkTakenNames(total: total, digest: file.sha256)
        if let total { try checkSpace(needed: total - part.length) }
        if response.status.code == 200, let validator = file.validator { part.validator = validator }
        let digest = file.sha256
        if digest != nil, hashedBytes != part.length { rehash(part) }
        try await receive(response.body, into: part, total: total, hashing: digest != nil)
        let length = part.length
        if let total, length < total {
            throw RetryableFailure(error: .transport(host: location.host ?? "", reason: "the file broke off"), advised: nil)
        }
        if let total, length > total { try restart(part); return nil }
        if let digest {
            guard Array(hasher.finalize()) == digest else {
                directory.remove(partName)
                throw DownloadError.digestMismatch(filename: name.candidate(candidateNumber))
            }
            isDigestVerified = true
        }
        return length
    }

    /// Streams the body to disk, chunk by chunk, as fast as the disk takes it.
    private mutating func receive(_ body: HTTPClientResponse.Body, into part: PartFile, total: Int64?, hashing: Bool) async throws {
        var received = part.length
        do {
            for try await chunk in body {
                try part.append(chunk)
                if hashing {
                    chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                    hashedBytes += Int64(chunk.readableBytes)
                }
                received += Int64(chunk.readableBytes)
                progress?(DownloadProgress(photoID: photo.id, receivedBytes: received, expectedBytes: total))
            }
        } catch let error as DownloadError {
            throw error
        } catch {
            throw retryable(TransportFailure(error, url: location!, readTimeout: client.configuration.timeouts.read))
        }
    }

    /// A non-success answer: an expired link is refreshed, a retryable status is retried, the rest thrown.
    private mutating func refuse(_ response: HTTPClientResponse, from url: URL) async throws {
        let body = (try? await response.body.collect(upTo: 1 << 20)) ?? ByteBuffer()
        let raw = RawResponse(status: Int(response.status.code), headers: response.headers, body: body, url: url)
        let error = await client.errorResponse(from: raw)
        let isFileOrigin = Origin(url) != Origin(client.baseURL)
        if raw.status == 403, error.code == .urlExpired || error.code == .invalidSignature || (isFileOrigin && error.code == .unknown) {
            guard refreshes < Self.maximumRefreshes else { throw APIError.response(error) }
            refreshes += 1
            location = try await client.send(API.downloadLocation(id: photo.id, size: size, format: format))
            return
        }
        if APIClient.retryableStatuses.contains(raw.status) {
            throw RetryableFailure(error: .response(error), advised: RetryAdvice.wait(in: response.headers, orReset: raw.status == 429))
        }
        throw APIError.response(error)
    }

    /// Skips the download when a taken name already holds exactly these bytes.
    private mutating func checkTakenNames(total: Int64?, digest: [UInt8]?) throws {
        guard !hasCheckedTakenNames else { return }
        hasCheckedTakenNames = true
        guard let total, let digest else { return }
        for taken in takenNames where directory.entry(taken) == .file(length: total) && directory.sha256(of: taken) == digest {
            throw SkippedIdentical(result: DownloadResult(
                outcome: .skippedIdentical, fileURL: URL(fileURLWithPath: directory.path(taken)), bytes: total, resumedFrom: 0
            ))
        }
    }

    private func checkSpace(needed: Int64) throws(DownloadError) {
        guard needed > 0, let available = directory.freeSpace(), available < needed else { return }
        throw .insufficientSpace(directory: directory.url.path, needed: needed, available: available)
    }

    private mutating func restart(_ part: PartFile) throws {
        try part.reset()
        hasher = SHA256()
        hashedBytes = 0
    }

    /// Hashes the bytes kept from before, so the digest covers the whole file.
    private mutating func rehash(_ part: PartFile) {
        hasher = SHA256()
        hashedBytes = directory.hash(partName, into: &hasher) ? part.length : 0
    }

    private func retryable(_ failure: TransportFailure) -> any Error {
        if case .cancelled = failure.error { return failure.error }
        return failure.isRetryable ? RetryableFailure(error: failure.error, advised: nil) : failure.error
    }

    /// Checks the length, syncs, sets the time and renames into place under the first free name.
    private mutating func finish(_ part: PartFile, length: Int64, resumedFrom: Int64) async throws -> DownloadResult {
        if !isDigestVerified, size == .original, format == .original, length != photo.bytes {
            directory.remove(partName)
            throw DownloadError.lengthMismatch(filename: name.candidate(candidateNumber), expected: photo.bytes, actual: length)
        }
        part.validator = nil
        if let takenAt = photo.takenAt { part.setModificationTime(takenAt) }
        let descriptor = part.descriptor
        let synced = try await NIOThreadPool.singleton.runIfActive { fsync(descriptor) == 0 }
        guard synced else { throw DownloadError.fileSystem(path: part.path, reason: DownloadDirectory.reason()) }
        while try !directory.moveIntoPlace(partName, as: name.candidate(candidateNumber)) {
            candidateNumber += 1
        }
        directory.sync()
        return DownloadResult(
            outcome: .downloaded, fileURL: URL(fileURLWithPath: directory.path(name.candidate(candidateNumber))),
            bytes: length, resumedFrom: resumedFrom
        )
    }
}
