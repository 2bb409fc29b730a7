import Foundation
import PhotoPickKit
import PhotoBrowser

/// Runs the user's editor (`$VISUAL`, `$EDITOR`, else `vi`) on a bulk-edit file, as lf's `bulkrename`
/// and vidir do, and reads back what changed. The file lives under photopick's state folder, readable
/// by the user alone; when the edit cannot be applied it stays there, named in the message, so the
/// work is not lost.
package struct ExternalEditor: Sendable {
    /// Where the files go.
    package let folder: URL
    /// Where `VISUAL` and `EDITOR` are read.
    package let environment: [String: String]
    /// What a file is named for.
    let now: @Sendable () -> Date

    /// An editor for files in `folder`, named for the moments `clock` gives.
    package init(folder: URL, clock: Timekeeper, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.folder = folder
        self.environment = environment
        now = clock.now
    }

    /// How an edit ended.
    package enum Outcome: Sendable, Equatable {
        /// The changes asked for; `file` is removed once they are applied or declined (`discard`).
        case changes([BulkEditFile.Change], file: URL)
        /// The file came back as it went out.
        case unchanged
        /// Nothing is applied; one line says why and where the edited file is kept.
        case failed(String)
    }

    /// The command run, with the file's path as its last argument.
    package var command: String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        }
        return "vi"
    }

    /// Writes `entries`, runs the editor on them with the terminal, waits for it and parses the result.
    /// Blocks until the editor exits: the caller has handed the terminal over.
    package func edit(_ entries: [BulkEditFile.Entry]) -> Outcome {
        let file: URL
        do {
            file = try write(BulkEditFile.render(entries))
        } catch {
            return .failed("could not write the file to edit in \(folder.path): \(error.localizedDescription)")
        }
        let kept = "; your edited file is kept at \(file.path)"
        let status: Int32
        do {
            status = try run(file)
        } catch {
            return .failed("could not start the editor “\(command)”: \(error.localizedDescription); set EDITOR to one that works\(kept)")
        }
        guard status == 0 else {
            return .failed("the editor “\(command)” exited with status \(status), so nothing was changed\(kept)")
        }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            return .failed("the edited file cannot be read as UTF-8 text (\(error.localizedDescription))\(kept)")
        }
        do {
            let changes = try BulkEditFile.parse(text, original: entries)
            guard !changes.isEmpty else {
                discard(file)
                return .unchanged
            }
            return .changes(changes, file: file)
        } catch {
            return .failed("\(error.description); nothing was changed\(kept)")
        }
    }

    /// Removes a file whose changes were applied, or declined.
    package func discard(_ file: URL) {
        try? FileManager.default.removeItem(at: file)
    }

    /// A new file, only the user's, named for when it was made (Unix seconds) and by whom.
    private func write(_ text: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = Int(now().timeIntervalSince1970)
        let file = folder.appending(path: "edit-\(stamp)-\(getpid()).tsv", directoryHint: .notDirectory)
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return file
    }

    /// Runs the command through the shell, so `EDITOR="code --wait"` works; the path is its own argument,
    /// never part of the command's text. The editor gets the terminal even when standard input or output is a pipe.
    private func run(_ file: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(command) \"$1\"", "photopick-edit", file.path]
        process.environment = environment
        if isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0, let terminal = FileHandle(forUpdatingAtPath: "/dev/tty") {
            process.standardInput = terminal
            process.standardOutput = terminal
        }
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }
}
