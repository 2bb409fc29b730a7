import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickConfig
import PhotoPickKit
import TerminalUI
import PhotoPickFormats

/// `photopick rm [QUERY | --ids … | -]`: deletes photos from the server for good, as the browser's `#`
/// does: logged before each deletion, originals kept first when asked, never queued for later.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete photos from the server for good (such as: photopick rm reject --keep-originals ~/purged).",
        discussion: """
            Every deletion is written to the purge log ($XDG_STATE_HOME/photopick/purge-log.jsonl: id, file name, \
            capture time, tags, size, when) before it is sent. With --keep-originals (or keep_originals in the \
            config) each original is downloaded there and verified first, and a photo whose original cannot be \
            kept is not deleted. One run deletes at most purge_limit photos (default 500). On a terminal it \
            asks you to type the number of photos; a script must pass --yes. A run that was killed is settled \
            by the next one, which says exactly what was and was not deleted. Exit codes: 0 all deleted, 5 some \
            not deleted (each named), 2 usage, 3 key refused, 4 network unreachable, 1 else.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var choice: PhotoChoice

    @Flag(name: .customLong("dry-run"), help: "List what would be deleted, and delete nothing.")
    var dryRun = false

    @Flag(help: "Delete without asking (needed when not on a terminal).")
    var yes = false

    @Option(name: .customLong("keep-originals"), help: ArgumentHelp("Download and verify each original into this folder before deleting it.", valueName: "dir"))
    var keepOriginals: String?

    @Flag(help: "JSON Lines on standard output: one deleted or failed event per photo, then a summary.")
    var jsonl = false

    func validate() throws {
        if let keepOriginals, keepOriginals.isEmpty { throw ValidationError("--keep-originals is empty; give a folder.") }
    }

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("rm") { () async throws(ScriptExit) in
            let standardInput = choice.readsStandardInput ? try PhotoChoice.readIDs() : nil
            try await ScriptSession.withLibrary(library, refresh: .manual) { script throws(ScriptExit) in
                try await remove(script, standardInput: standardInput)
            }
        }
    }

    @MainActor
    private func remove(_ script: ScriptSession, standardInput: [Int]?) async throws(ScriptExit) {
        // A run killed before is settled first, so its report is exact and its photos are not offered again.
        await script.wait { $0.interruptedPurge != nil }
        if let earlier = script.session.state.interruptedPurge, !earlier.deleted.isEmpty || !earlier.failed.isEmpty {
            FileHandle.standardError.write(Data("photopick rm: an earlier purge was interrupted: \(TerminalText.sanitized(earlier.interruptionSummary))\n".utf8))
        }
        let state = script.session.state
        // Ids an earlier purge deleted are done, not unknown: an interrupted rm can be run again as it was.
        let purged = (try? script.session.purgedPhotoIDs()) ?? []
        let listed = standardInput ?? choice.ids.flatMap(TagCommand.Choice.parse)
        let done = listed.map { $0.filter { purged.contains($0) && state.library.index(ofID: $0) == nil } } ?? []
        if !done.isEmpty {
            FileHandle.standardError.write(Data("photopick rm: \(done.count) already deleted by an earlier purge (\(done.prefix(5).map(String.init).joined(separator: ", ")))\(done.count > 5 ? ", …" : "").\n".utf8))
        }
        let photoIDs = try choice.photoIDs(script, standardInput: listed.map { ids in ids.filter { !done.contains($0) } })
        let bytes = state.bytes(ofPhotos: photoIDs)
        let size = Figures.bytes(bytes)
        if dryRun {
            var output = OutputBuffer()
            for id in photoIDs {
                guard let index = state.library.index(ofID: id) else { continue }
                let photo = state.library.photo(at: index)
                output.line("\(id)\t\(TerminalText.sanitized(photo.filename))\t\(photo.bytes)")
            }
            output.flush()
            FileHandle.standardError.write(Data("photopick rm: would delete \(photoIDs.count) photo\(photoIDs.count == 1 ? "" : "s") (\(size)); nothing was deleted.\n".utf8))
            return
        }
        guard !photoIDs.isEmpty else {
            FileHandle.standardError.write(Data("photopick rm: no photos matched; nothing was deleted.\n".utf8))
            return
        }
        if let problem = state.purgeProblem(photoIDs) { throw ScriptExit(code: 1, message: problem) }
        let folder = keepOriginals.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath, isDirectory: true).standardizedFileURL }
            ?? script.config.keepOriginals
        if !yes {
            guard isatty(STDIN_FILENO) == 1 || standardInput != nil, isatty(STDERR_FILENO) == 1 else {
                throw .usage("rm deletes photos for good and there is no terminal to ask; pass --yes (or --dry-run to list what would go)")
            }
            let count = photoIDs.count
            let question = "Delete \(count) photo\(count == 1 ? "" : "s") (\(size)) from the server? This cannot be undone"
                + (folder.map { " (originals kept in \($0.path))" } ?? "") + ". Type \(count) to confirm: "
            guard Confirmation.ask(question, expecting: [String(count)]) else {
                throw ScriptExit(code: 1, message: "not confirmed; nothing was deleted")
            }
        }
        script.session.send(.purge(.purgeRequested(photoIDs, keepOriginals: folder)))
        await script.wait { $0.purge == nil }
        guard let report = script.purgeReport else {
            throw ScriptExit(code: 1, message: script.session.state.message?.text ?? "the purge did not start")
        }
        if jsonl { Self.print(report, photoIDs: photoIDs, state: state) }
        FileHandle.standardError.write(Data("photopick rm: \(TerminalText.sanitized(report.summary(bytes: state.bytes(ofPhotos: report.deleted))))\n".utf8))
        if !report.failed.isEmpty {
            throw ScriptExit(code: 5, message: "\(report.failed.count) of \(photoIDs.count) not deleted; the purge log says why for each")
        }
    }

    /// One JSON line per photo, then the summary.
    @MainActor
    private static func print(_ report: PurgeSummary, photoIDs: [Int], state: BrowserState) {
        var output = OutputBuffer(lineByLine: true)
        let deleted = Set(report.deleted)
        for id in photoIDs {
            var event: [String: Any] = ["id": id]
            if deleted.contains(id) {
                event["event"] = "deleted"
                if let kept = report.kept[id] { event["kept"] = kept }
            } else {
                event["event"] = "failed"
                event["reason"] = report.failed[id] ?? "not attempted"
            }
            output.line(JSONLine.text(event))
        }
        output.line(#"{"deleted":\#(report.deleted.count),"event":"summary","failed":\#(report.failed.count)}"#)
    }
}
