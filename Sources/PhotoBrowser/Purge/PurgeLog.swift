import Foundation
import PhotoPickFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every deletion, recorded as a JSON line before its DELETE is sent and again after, so a purge killed at any moment can say what was deleted.
struct PurgeLog: Sendable {
    /// One line of the log.
    struct Record: Codable, Sendable, Equatable {
        /// What the line says happened to the photo.
        enum Kind: String, Codable, Sendable {
            /// The DELETE is about to be sent.
            case intent
            /// The server answered 204, or 404 after an intent.
            case deleted
            /// The photo was not deleted; `reason` says why.
            case failed
            /// The original was downloaded to `path` and verified.
            case kept
            /// The purge was asked to delete this photo: written for every photo before the first deletion.
            case planned
            /// The purge ended (`id` 0), or a later start settled it after a kill (`reason` says so).
            case finished
        }

        /// What happened.
        var kind: Kind
        /// The purge's id, the same on every line of one purge.
        var purge: String
        /// The library (account) the photo belongs to.
        var library: String
        /// The photo's id.
        var id: Int
        /// The photo's file name.
        var filename: String?
        /// The photo's capture time.
        var takenAt: Date?
        /// The photo's tag names.
        var tags: [String]?
        /// The original's size.
        var bytes: Int64?
        /// Where a kept original was written.
        var path: String?
        /// Why a photo was not deleted.
        var reason: String?
        /// When the line was written.
        var at: Date

        /// A line written at `at`.
        init(kind: Kind, purge: String, library: String, id: Int, filename: String? = nil, takenAt: Date? = nil,
                    tags: [String]? = nil, bytes: Int64? = nil, path: String? = nil, reason: String? = nil, at: Date) {
            self.kind = kind
            self.purge = purge
            self.library = library
            self.id = id
            self.filename = filename
            self.takenAt = takenAt
            self.tags = tags
            self.bytes = bytes
            self.path = path
            self.reason = reason
            self.at = at
        }
    }

    /// A log that could not be written or read: one line naming the file, what went wrong and what to do.
    struct Problem: Error, CustomStringConvertible {
        /// The line to show.
        let description: String
    }

    /// Where the log lives: `<state folder>/purge-log.jsonl`.
    let url: URL

    /// The log at `url`; nothing is opened until it is used.
    init(url: URL) {
        self.url = url
    }

    /// Appends `record` and makes it durable before returning.
    func append(_ record: Record) throws {
        try append([record])
    }

    /// Appends `records` with one write and one fsync, durable before returning.
    func append(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        let encoder = ListedPhoto.encoder()
        var lines = Data()
        for record in records {
            lines.append(try encoder.encode(record))
            lines.append(0x0A)
        }
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        let descriptor = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open") }
        defer { close(descriptor) }
        // One writer at a time, across processes: a browser and an rm share the log, and cutting a torn
        // tail must never cut another writer's line in the making. The lock goes with the descriptor.
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("lock") }
        }
        try cutTornTail(descriptor)
        let written = lines.withUnsafeBytes { buffer in
            var written: Int
            repeat { written = write(descriptor, buffer.baseAddress, buffer.count) } while written < 0 && errno == EINTR
            return written
        }
        guard written >= 0 else { throw failure("write") }
        guard written == lines.count else {
            throw Problem(description: "wrote \(written) of \(lines.count) bytes to the purge log \(url.path); free some space and purge again")
        }
        guard fsync(descriptor) == 0 else { throw failure("sync") }
        if isNew { syncFolder() }
    }

    /// Every record, in order; a torn last line is left out, and a missing file is an empty log.
    func records() throws -> [Record] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let data = try Data(contentsOf: url)
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        // After a final newline comes an empty piece; without one, the last line is torn.
        lines.removeLast()
        let decoder = Self.decoder()
        var records: [Record] = []
        for (index, line) in lines.enumerated() {
            do {
                records.append(try decoder.decode(Record.self, from: Data(line)))
            } catch where index == lines.count - 1 {
                // A last line cut short by a crash: its write never returned, so its DELETE was never sent.
            } catch {
                throw Problem(description: "line \(index + 1) of the purge log \(url.path) is not a purge record; fix or remove that line")
            }
        }
        return records
    }

    /// The latest intent of each photo of `library` with no outcome after it: a purge interrupted between the two, in log order.
    func unsettled(library: String) throws -> [Record] {
        var pending: [Int: (order: Int, record: Record)] = [:]
        for (order, record) in try records().enumerated() where record.library == library {
            switch record.kind {
            case .intent: pending[record.id] = (order, record)
            case .deleted, .failed: pending[record.id] = nil
            case .kept, .planned, .finished: break
            }
        }
        return pending.values.sorted { $0.order < $1.order }.map(\.record)
    }

    /// Marks a purge as running for as long as the returned lock is held (it is let go when the process
    /// ends, killed or not): a purge with no `finished` line is one a kill stopped only when no lock is
    /// held on it (`isRunning`).
    func markRunning(_ purge: String) -> Int32? {
        let descriptor = open(lockURL(purge).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Ends a running mark: the lock file goes, then the lock.
    func markStopped(_ purge: String, _ descriptor: Int32) {
        unlink(lockURL(purge).path)
        close(descriptor)
    }

    /// Whether another process (or this one) is running the purge now.
    func isRunning(_ purge: String) -> Bool {
        let descriptor = open(lockURL(purge).path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Forgets the lock file of a purge settled after a kill.
    func forgetLock(_ purge: String) {
        unlink(lockURL(purge).path)
    }

    private func lockURL(_ purge: String) -> URL {
        url.deletingLastPathComponent().appending(path: ".purge-\(purge).lock", directoryHint: .notDirectory)
    }

    /// The purges of `library` that never finished (killed), each with its records, oldest first.
    func interrupted(library: String) throws -> [(purge: String, records: [Record])] {
        var order: [String] = []
        var byPurge: [String: [Record]] = [:]
        for record in try records() where record.library == library {
            if byPurge[record.purge] == nil { order.append(record.purge) }
            byPurge[record.purge, default: []].append(record)
        }
        return order.compactMap { purge in
            let records = byPurge[purge] ?? []
            return records.contains { $0.kind == .finished } ? nil : (purge, records)
        }
    }

    /// Cuts off a last line that `records()` would leave out (torn by a kill), so the next line neither joins it nor buries it.
    private func cutTornTail(_ descriptor: Int32) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("read") }
        var start = Int64(status.st_size)
        var tail: [UInt8] = []
        // Read back, a page at a time, to the newline before the last line.
        while start > 0, !tail.dropLast().contains(0x0A) {
            let from = max(0, start - 4_096)
            var chunk = [UInt8](repeating: 0, count: Int(start - from))
            guard chunk.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, $0.count, off_t(from)) }) == chunk.count else {
                throw failure("read")
            }
            tail = chunk + tail
            start = from
        }
        if let newline = tail.dropLast().lastIndex(of: 0x0A) {
            start += Int64(newline + 1)
            tail.removeFirst(newline + 1)
        }
        guard !tail.isEmpty else { return }
        if tail.last == 0x0A, (try? Self.decoder().decode(Record.self, from: Data(tail.dropLast()))) != nil { return }
        guard ftruncate(descriptor, off_t(start)) == 0 else { throw failure("repair") }
    }

    /// Makes a new file's name durable too; best effort, since some file systems refuse to sync a folder.
    private func syncFolder() {
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }

    private func failure(_ action: String) -> Problem {
        let reason = String(cString: strerror(errno))
        return Problem(description: "could not \(action) the purge log \(url.path): \(reason); check the state folder is writable and has space")
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "“\(text)” is not an ISO 8601 time") }
            return date
        }
        return decoder
    }
}
