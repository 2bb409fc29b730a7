import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit

/// `photopick sync QUERY DIR`: makes a folder hold exactly the photos a query matches (and their
/// sidecars), through the same queue as `get`. Files of ours are those photopick recorded writing there;
/// `--delete` removes only those, and only while their bytes still hash to the record.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Make a folder hold exactly the photos a query matches: fetch what is missing; --delete what no longer matches.",
        discussion: """
            QUERY is as after / in the browser ('' for every photo). With --delete, files photopick wrote into DIR \
            that no longer match (or that a new --template places elsewhere) are removed with their sidecars, but only \
            while their bytes are as written (SHA-256); any other file, and one changed since, is never touched, and a \
            changed one is named on stderr. --dry-run prints the plan: one 'get PATH', 'delete PATH' or 'keep PATH' \
            (ours, but changed) line each. Exit codes are as for get.
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
            try await ScriptSession.withLibrary(
                library, refresh: download.refresh ? .onStart : .manual, downloadDirectory: directory, concurrency: download.concurrency
            ) { script throws(ScriptExit) in
                try await sync(script)
            }
        }
    }

    @MainActor
    private func sync(_ script: ScriptSession) async throws(ScriptExit) {
        let session = script.session
        let state = session.state
        let photoIDs = download.files(try script.filter(query).map { state.library.id(at: $0) }, state: state)
        let size = download.size(default: state.downloadVariant)
        let parsed = download.parsedTemplate
        let root = state.downloadDirectory
        let wanted = GetCommand.placements(photoIDs, state: state, template: parsed)
        let written: [WrittenFile]
        do { written = try session.writtenFiles(under: root) } catch {
            throw ScriptExit(code: 1, message: "the record of the files photopick wrote cannot be read (\(error)); nothing was changed")
        }
        // One plan for both: a dry run prints what the real run then does.
        let plan = SyncPlan(wanted: wanted, variant: size, root: root, state: state, written: written, deleting: delete)
        if dryRun {
            var output = OutputBuffer()
            plan.lines.forEach { output.line(TerminalText.sanitized($0)) }
            output.flush()
            // The lines the real run's fetch and deletions print.
            for file in plan.keptAndFetchedAgain {
                Self.say("kept \(TerminalText.sanitized(file.path)): it changed since it was downloaded; fetching the photo again")
            }
            Self.sayKept(plan.kept)
            Self.say("\(plan.fetches.count) to get, \(plan.deletions.count) to delete, \(plan.inPlace) in place (a dry run: nothing changed).")
            return
        }
        try await GetCommand.fetch(
            script, photoIDs: photoIDs, size: size, template: parsed, jsonl: download.jsonl, sidecar: download.sidecar != nil,
            as: "sync"
        )
        guard delete else { return }
        var removed = 0, kept = plan.kept, forgotten = plan.gone.map(\.path)
        let prefix = WrittenFile.pathPrefix(inside: root)
        for file in plan.deletions {
            // Checked again just before: the user may have changed it while the fetches ran.
            guard file.currentState() == .intact else {
                kept.append(file)
                continue
            }
            guard unlink(file.path) == 0 || errno == ENOENT else { continue }
            forgotten.append(file.path)
            removed += file.isSidecar ? 0 : 1
            // Folders a template made, left empty, go too; never the folder itself.
            var folder = URL(fileURLWithPath: file.path).deletingLastPathComponent().standardizedFileURL
            while folder.path(percentEncoded: false).hasPrefix(prefix), rmdir(folder.path) == 0 {
                folder = folder.deletingLastPathComponent()
            }
        }
        // A changed file is the user's from now on: its record goes, and it is named this once.
        forgotten += kept.map(\.path)
        try? session.forgetWrittenFiles(forgotten)
        let paths = Set(forgotten)
        session.send(.downloads(.downloadsForgotten(session.state.downloads.items.filter { $0.resultPath.map(paths.contains) ?? false }.map(\.id))))
        Self.sayKept(kept)
        Self.say("deleted \(removed) file\(removed == 1 ? "" : "s") that no longer match.")
    }

    /// One line on stderr for each file of ours kept because it changed since photopick wrote it.
    private static func sayKept(_ kept: [WrittenFile]) {
        for file in kept {
            say("kept \(TerminalText.sanitized(file.path)): it changed since it was downloaded")
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("photopick sync: \(line)\n".utf8))
    }
}
