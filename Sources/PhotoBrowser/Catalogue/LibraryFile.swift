import Foundation
import PhotoPickKit

/// The catalogue's photos as the library holds them, in one file beside it: each column written as its
/// bytes are in memory, so a start reads a million photos with one `read` a column (a fraction of a
/// second) where decoding a million SQLite rows took four and a half. It is a cache of the catalogue at
/// one revision; the rows changed since come from the catalogue itself, and a file that cannot be read
/// is ignored and written again.
///
/// Hand-written because the columns are this project's own layout: no serialisation library reads a
/// million-element array into place without decoding each element.
enum LibraryFile {
    private static let magic = Array("PPCOLS02".utf8)

    /// The file beside `catalogue`.
    static func url(forCatalogue catalogue: URL) -> URL {
        catalogue.deletingPathExtension().appendingPathExtension("columns")
    }

    /// Removes temporary files a write killed part way left beside `catalogue`.
    static func removeLeftovers(forCatalogue catalogue: URL) {
        let file = url(forCatalogue: catalogue), folder = file.deletingLastPathComponent()
        let prefix = ".\(file.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: folder.appending(path: name))
        }
    }

    /// Writes `library` (with no photos removed) as the catalogue `instance` at `revision`: to a temporary
    /// name, then renamed over the old file, so a kill leaves the old one or the new one whole.
    static func write(_ library: PhotoLibrary, revision: Int64, instance: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        var out = try Output(temporary)
        let columns = library.columns
        try out.bytes(magic)
        try out.string(instance)
        try out.scalar(revision)
        try out.scalar(Int64(columns.count))
        try out.array(columns.ids)
        try out.array(columns.takenAt)
        try out.array(columns.createdAt)
        try out.array(columns.bytes)
        for array in [columns.width, columns.height, columns.iso, columns.mimeType, columns.cameraMake, columns.cameraModel, columns.lens, columns.exposureTime] {
            try out.array(array)
        }
        for array in [columns.fNumber, columns.focalLength, columns.latitude, columns.longitude] { try out.array(array) }
        for text in [columns.filenames, columns.titles, columns.search] { try out.text(text) }
        try out.array(columns.untitled.words)
        try out.scalar(Int64(columns.pool.strings.count))
        for string in columns.pool.strings { try out.string(string) }
        try out.scalar(Int64(columns.details.count))
        for (index, details) in columns.details {
            // A description alone is the usual case: its fields' JSON only when there are any.
            try out.scalar(index)
            try out.scalar(UInt8((details.description == nil ? 0 : 1) | (details.extra.isEmpty ? 0 : 2)))
            if let description = details.description { try out.string(description) }
            if !details.extra.isEmpty { try out.bytes(Array((try? JSONEncoder().encode(details.extra)) ?? Data("{}".utf8))) }
        }
        let tags = library.tags.all
        try out.scalar(Int64(tags.count))
        for (id, members) in tags {
            try out.scalar(Int64(id))
            switch members {
            case .sparse(let indices):
                try out.scalar(UInt8(0))
                try out.array(indices)
            case .dense(let bits, let count):
                try out.scalar(UInt8(1))
                try out.scalar(Int64(count))
                try out.array(bits.words)
            }
        }
        for key in SortKey.allCases { try out.array(library.orders[key]) }
        try out.array(library.focus)
        try out.bytes(magic)
        try out.sync()
        out.close()
        guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// The library in `url` and the revision it was written at; throws when the file is missing, of
    /// another catalogue (`instance`), or not whole.
    static func read(_ url: URL, instance: String) throws -> (library: PhotoLibrary, revision: Int64) {
        let input = try Input(url)
        guard try input.bytes() == magic, try input.string() == instance else { throw LibraryFileProblem.notThisCatalogue }
        let revision: Int64 = try input.scalar()
        let count = Int(try input.scalar() as Int64)
        var columns = PhotoColumns()
        columns.ids = try input.array(count)
        columns.takenAt = try input.array(count)
        columns.createdAt = try input.array(count)
        columns.bytes = try input.array(count)
        columns.width = try input.array(count)
        columns.height = try input.array(count)
        columns.iso = try input.array(count)
        columns.mimeType = try input.array(count)
        columns.cameraMake = try input.array(count)
        columns.cameraModel = try input.array(count)
        columns.lens = try input.array(count)
        columns.exposureTime = try input.array(count)
        columns.fNumber = try input.array(count)
        columns.focalLength = try input.array(count)
        columns.latitude = try input.array(count)
        columns.longitude = try input.array(count)
        columns.filenames = try input.text(count, filler: 0)
        columns.titles = try input.text(count, filler: 0)
        columns.search = try input.text(count, filler: PhotoColumns.separator)
        columns.untitled = Bitset(words: try input.array(nil))
        let poolCount = Int(try input.scalar() as Int64)
        columns.pool = StringPool(strings: try (0..<poolCount).map { _ in try input.string() })
        let detailCount = Int(try input.scalar() as Int64)
        for _ in 0..<detailCount {
            let index: Int32 = try input.scalar()
            let has: UInt8 = try input.scalar()
            let description = has & 1 != 0 ? try input.string() : nil
            let extra = has & 2 != 0 ? (try? JSONDecoder().decode([String: JSONValue].self, from: Data(try input.bytes()))) ?? [:] : [:]
            columns.details[index] = PhotoColumns.Details(description: description, extra: extra)
        }
        var sets: [Int: TagSets.Members] = [:]
        let tagCount = Int(try input.scalar() as Int64)
        for _ in 0..<tagCount {
            let id = Int(try input.scalar() as Int64)
            let kind: UInt8 = try input.scalar()
            if kind == 0 {
                sets[id] = .sparse(try input.array(nil))
            } else {
                let members = Int(try input.scalar() as Int64)
                sets[id] = .dense(Bitset(words: try input.array(nil)), count: members)
            }
        }
        let orders = SortOrders(byTime: try input.array(count), byName: try input.array(count), bySize: try input.array(count))
        let focus: [Float] = try input.array(count)
        guard try input.bytes() == magic else { throw LibraryFileProblem.truncated }
        let library = PhotoLibrary(columns: columns, tags: TagSets(members: sets, capacity: count), orders: orders, removed: Bitset(), focus: focus)
        return (library, revision)
    }
}

/// Why a library file was not used.
enum LibraryFileProblem: Error {
    case notThisCatalogue
    case truncated
}

/// Writes a library file: each array's count, then its bytes as they are in memory.
private struct Output: ~Copyable {
    private var descriptor: Int32

    init(_ url: URL) throws {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
    }

    deinit { if descriptor >= 0 { _ = Foundation.close(descriptor) } }

    /// Closes the file once: a second close would close whatever file or socket got the number since.
    mutating func close() {
        if descriptor >= 0 { _ = Foundation.close(descriptor) }
        descriptor = -1
    }

    func sync() throws {
        guard fsync(descriptor) == 0 else { throw POSIXError(.EIO) }
    }

    func raw(_ pointer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < pointer.count {
            let written = Foundation.write(descriptor, pointer.baseAddress! + offset, pointer.count - offset)
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += written
        }
    }

    func scalar<T: BitwiseCopyable>(_ value: T) throws {
        try withUnsafeBytes(of: value) { try raw($0) }
    }

    func array<T: BitwiseCopyable>(_ values: [T]) throws {
        try scalar(Int64(values.count))
        try values.withUnsafeBytes { try raw($0) }
    }

    func bytes(_ values: [UInt8]) throws { try array(values) }

    func string(_ value: String) throws { try array(Array(value.utf8)) }

    func text(_ column: TextColumn) throws {
        let parts = column.parts
        try array(parts.bytes)
        try array(parts.ends)
        try scalar(Int64(parts.moved.count))
        for (row, text) in parts.moved {
            try scalar(row)
            try array(text)
        }
    }
}

/// Reads a library file back: each large array into place with one `read`, the small fields around
/// them from a buffer (a `read` each for a hundred thousand descriptions took most of a start).
private final class Input {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0

    init(_ url: URL) throws {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path]) }
    }

    deinit { _ = Foundation.close(descriptor) }

    private func raw(_ pointer: UnsafeMutableRawBufferPointer) throws {
        var offset = 0
        // What the buffer holds first.
        let buffered = min(end - start, pointer.count)
        if buffered > 0 {
            buffer.withUnsafeBytes { pointer.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: buffered) }
            start += buffered
            offset = buffered
        }
        if pointer.count - offset >= buffer.count / 2 {
            // A column: straight into place.
            while offset < pointer.count {
                let got = Foundation.read(descriptor, pointer.baseAddress! + offset, pointer.count - offset)
                guard got > 0 else { throw LibraryFileProblem.truncated }
                offset += got
            }
            return
        }
        while offset < pointer.count {
            let got = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            guard got > 0 else { throw LibraryFileProblem.truncated }
            (start, end) = (0, got)
            let taken = min(got, pointer.count - offset)
            buffer.withUnsafeBytes { (pointer.baseAddress! + offset).copyMemory(from: $0.baseAddress!, byteCount: taken) }
            start = taken
            offset += taken
        }
    }

    func scalar<T: BitwiseCopyable>(_: T.Type = T.self) throws -> T {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            try raw(UnsafeMutableRawBufferPointer(buffer))
            return buffer[0]
        }
    }

    /// An array of `expected` elements (any number when nil).
    func array<T: BitwiseCopyable>(_ expected: Int?) throws -> [T] {
        let count = Int(try scalar(Int64.self))
        guard count >= 0, count < 1 << 40, expected.map({ $0 == count }) ?? true else { throw LibraryFileProblem.truncated }
        return try [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            try raw(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    func bytes() throws -> [UInt8] { try array(nil) }

    func string() throws -> String { String(decoding: try bytes(), as: UTF8.self) }

    func text(_ count: Int, filler: UInt8) throws -> TextColumn {
        let bytes: [UInt8] = try array(nil)
        let ends: [UInt32] = try array(count)
        guard ends.last.map({ Int($0) == bytes.count }) ?? bytes.isEmpty else { throw LibraryFileProblem.truncated }
        var moved: [Int32: [UInt8]] = [:]
        for _ in 0..<Int(try scalar(Int64.self)) {
            let row: Int32 = try scalar()
            moved[row] = try array(nil)
        }
        return TextColumn(filler: filler, bytes: bytes, ends: ends, moved: moved)
    }
}
