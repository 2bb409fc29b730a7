import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit

/// `photopick sync QUERY DIR`: makes a folder hold exactly the photos a query matches (and their
/// sidecars), through the same queue as `get`. Files of ours are those the queue recorded downloading
/// there; `--delete` removes only those, and only while they are as downloaded.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Make a folder hold exactly the photos a query matches: fetch what is missing; --delete what no longer matches.",
        discussion: """
            QUERY is as after / in the browser ('' for every photo). With --delete, files photopick downloaded into \
            DIR that no longer match (or that a new --template places elsewhere) are removed with their sidecars; any \
            other file, and one changed since it was downloaded, is never touched. --dry-run prints the plan: one \
            'get PATH', 'delete PATH' or 'keep PATH' (ours, but changed) line each. Exit codes are get's.
            """
    )

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The query ('' for every photo).", valueName: "query"))
    var query: String

    @Argument(help: ArgumentHelp("The folder.", valueName: "dir"))
    var directory: String

    @OptionGroup var download: DownloadOptions

    @Flag(help: "Remove the files of ours that no longer match.")
    var delete = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan and change nothing.")
    var dryRun = false

    func validate() throws {
        if directory.isEmpty { throw ValidationError("the folder is empty; give one.") }
    }

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("sync") { () async throws(ScriptExit) in
            let script = try await ScriptSession.open(
                library, refresh: download.refresh ? .onStart : .manual, downloadDirectory: directory, concurrency: download.concurrency
            )
            do throws(ScriptExit) {
                try await script.library()
                try await sync(script)
                await script.close()
            } catch {
                await script.close()
                throw error
            }
        }
    }

    @MainActor
    private func sync(_ script: ScriptSession) async throws(ScriptExit) {
        let state = script.session.state
        let photoIDs = try script.filter(query).map { state.library[$0].id }
        let size = download.size(default: state.downloadVariant)
        let parsed = download.parsedTemplate
        let root = state.downloadDirectory
        let wanted = GetCommand.placements(photoIDs, state: state, template: parsed)
        let place = Dictionary(uniqueKeysWithValues: wanted.map { ($0.photoID, $0.directory(under: root)) })
        let rootPath = root.standardizedFileURL.path(percentEncoded: false)
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        // Ours: what the queue finished into this folder. Kept: a matching photo, in this variant, where it belongs.
        let ours = state.downloads.items.filter { item in
            item.status.isFinished && (item.resultPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path(percentEncoded: false).hasPrefix(prefix) } ?? false)
        }
        let stale = ours.filter { item in
            guard item.variant == size, let folder = place[item.photoID] else { return true }
            return !item.isIn(folder)
        }
        let inPlace = Set(ours.filter { item in item.resultExists && !stale.contains { $0.id == item.id } }.map(\.photoID))
        let missing = wanted.filter { !inPlace.contains($0.photoID) }
        if dryRun {
            var output = OutputBuffer()
            for request in missing {
                let folder = place[request.photoID] ?? root
                let name = request.filename ?? state.library.index(ofID: request.photoID).map { state.library[$0].filename } ?? "photo \(request.photoID)"
                output.line("get " + TerminalText.sanitized(folder.appending(path: name).path(percentEncoded: false)))
            }
            var deleting = 0
            if delete {
                for item in stale {
                    guard let path = item.resultPath, let intact = Self.isAsDownloaded(item) else { continue }
                    output.line((intact ? "delete " : "keep ") + TerminalText.sanitized(path))
                    if intact { deleting += 1 }
                }
            }
            output.flush()
            FileHandle.standardError.write(Data("photopick sync: \(missing.count) to get, \(deleting) to delete, \(inPlace.count) in place (a dry run: nothing changed).\n".utf8))
            return
        }
        try await GetCommand.fetch(script, photoIDs: photoIDs, size: size, template: parsed, jsonl: download.jsonl, sidecar: download.sidecar != nil)
        guard delete, !stale.isEmpty else { return }
        var removed = 0, changed: [String] = []
        for item in stale {
            guard let path = item.resultPath, let intact = Self.isAsDownloaded(item) else { continue }  // gone already
            guard intact else {
                changed.append(path)
                continue
            }
            unlink(path)
            let sidecar = XMPSidecar.url(for: URL(fileURLWithPath: path)).path
            if FileManager.default.fileExists(atPath: sidecar) { unlink(sidecar) }
            removed += 1
            // Folders a template made, left empty, go too; never the folder itself.
            var folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
            while folder.path(percentEncoded: false).hasPrefix(prefix), rmdir(folder.path) == 0 {
                folder = folder.deletingLastPathComponent()
            }
        }
        script.session.send(.downloadsForgotten(stale.map(\.id)))
        for path in changed.prefix(10) {
            FileHandle.standardError.write(Data("photopick sync: kept \(TerminalText.sanitized(path)): it changed since it was downloaded\n".utf8))
        }
        if changed.count > 10 {
            FileHandle.standardError.write(Data("photopick sync: kept \(changed.count - 10) more files that changed since they were downloaded\n".utf8))
        }
        FileHandle.standardError.write(Data("photopick sync: deleted \(removed) file\(removed == 1 ? "" : "s") that no longer match.\n".utf8))
    }

    /// Whether a finished download's file is still as downloaded: a regular file of its length with the
    /// capture time the download gave it. One the user replaced or edited is theirs now. Nil when it is gone.
    static func isAsDownloaded(_ item: DownloadItem) -> Bool? {
        var status = stat()
        guard let path = item.resultPath, lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFREG && Int64(status.st_size) == item.receivedBytes
            && item.takenAt.map { abs(Double(status.st_mtim.tv_sec) - $0.timeIntervalSince1970) < 1 } ?? true
    }
}
