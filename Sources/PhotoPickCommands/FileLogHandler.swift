import Foundation
import Logging
import NIOConcurrencyHelpers
import PhotoBrowser
import PhotoPickKit

/// swift-log lines appended to `$XDG_STATE_HOME/photopick/photopick.log`, never to the screen the
/// browser draws on. The Kit already redacts keys and signed URLs from what it logs.
struct FileLogHandler: LogHandler {
    /// The shared open file; one write per line, under a lock.
    final class Sink: Sendable {
        private let handle: NIOLockedValueBox<FileHandle>

        init(handle: FileHandle) {
            self.handle = NIOLockedValueBox(handle)
        }

        func write(_ line: String) {
            handle.withLockedValue { $0.write(Data(line.utf8)) }
        }
    }

    let label: String
    let sink: Sink
    /// What each line is dated by.
    let clock: Timekeeper
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let timestamp = clock.now().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        // Server text can reach a message; escapes in the log would run when someone views it.
        let line = TerminalText.sanitized("\(timestamp) \(event.level) \(label): \(event.message)\(details)")
        sink.write(line + "\n")
    }

    /// Opens (creating) the log under `directory`; `nil` when it cannot, in which case nothing is logged.
    static func sink(in directory: URL) -> Sink? {
        let url = directory.appending(path: "photopick.log", directoryHint: .notDirectory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return nil }
            return Sink(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        } catch {
            return nil
        }
    }
}
