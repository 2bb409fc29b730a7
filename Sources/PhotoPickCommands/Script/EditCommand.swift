import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickConfig
import PhotoPickFormats
import PhotoPickKit
import TerminalUI

/// `photopick edit [QUERY | --ids … | -] --title …`: changes photos' fields through the browser's edit
/// outbox, so an interrupted edit is sent by the next photopick, and waits until the server has them.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change the title, description, file name or capture time of photos (or all of them in $EDITOR).",
        discussion: """
            Edits go through the same outbox as the browser's E: saved before anything is sent, sent once, kept \
            for the next photopick when the server cannot be reached. A file name with {fields} is a template, \
            as for get --template, plus {n} counting the photos (such as {taken:%Y%m%d}_{n:03}.{extension}). \
            An empty --title or --description clears it. --editor writes one line per photo (id, file name, \
            title, tab separated) for $VISUAL or $EDITOR and applies what you change after showing a summary. \
            Exit codes: 0 done, 1 the server refused some (each named), 2 usage, 3 key refused, 4 network \
            unreachable, 1 else.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var choice: PhotoChoice

    @Option(help: ArgumentHelp("The new title ('' clears it).", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("The new description ('' clears it).", valueName: "text"))
    var description: String?

    @Option(help: ArgumentHelp("The new file name, or a template such as '{taken:%Y%m%d}_{n:03}.{extension}'.", valueName: "name"))
    var filename: String?

    @Option(name: .customLong("taken-at"), help: ArgumentHelp("The capture time, ISO 8601 such as 2024-06-01T14:03:22Z.", valueName: "time"))
    var takenAt: String?

    @Option(help: ArgumentHelp("Shift capture times: +1h, -00:14:30, +1d; or a zone the camera's clock was in: 'zone Europe/Prague'.", valueName: "duration"))
    var shift: String?

    @Flag(help: "Edit file names and titles in $VISUAL or $EDITOR (else vi).")
    var editor = false

    @Flag(help: "Apply the editor's changes without asking.")
    var yes = false

    @Flag(help: "JSON Lines on standard output: one edited or failed event per photo, then a summary.")
    var jsonl = false

    func validate() throws {
        if editor, title != nil || description != nil || filename != nil || takenAt != nil || shift != nil {
            throw ValidationError("--editor edits names and titles itself; give it alone, or the fields without it.")
        }
        if !editor, title == nil, description == nil, filename == nil, takenAt == nil, shift == nil {
            throw ValidationError("say what to change: --title, --description, --filename, --taken-at, --shift or --editor.")
        }
        if takenAt != nil, shift != nil { throw ValidationError("give --taken-at or --shift, not both.") }
        if let takenAt, ISO8601.date(from: takenAt) == nil {
            throw ValidationError("--taken-at \(takenAt) is not an ISO 8601 time; write it like 2024-06-01T14:03:22Z.")
        }
        if let shift {
            do { _ = try TimeAdjustment(parsing: shift) } catch { throw ValidationError("--shift: \(error.description)") }
        }
        if let filename, filename.contains("{") || filename.contains("}") {
            do { _ = try PhotoTemplate(filename) } catch { throw ValidationError("--filename: \(error.description)") }
        }
    }

    /// The fields asked for, parsed (validated already).
    var request: EditRequest {
        EditRequest(
            title: title, description: description, filename: filename, takenAt: takenAt.flatMap(ISO8601.date(from:)),
            adjustment: shift.flatMap { try? TimeAdjustment(parsing: $0) }
        )
    }

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("edit") { () async throws(ScriptExit) in
            let standardInput = choice.readsStandardInput ? try PhotoChoice.readIDs() : nil
            try await ScriptSession.withLibrary(library, refresh: .manual) { script throws(ScriptExit) in
                let photoIDs = try choice.photoIDs(script, standardInput: standardInput)
                guard !photoIDs.isEmpty else { throw ScriptExit(code: 0, message: "no photos matched; nothing to edit") }
                let changes = editor ? try editInEditor(script, photoIDs: photoIDs) : try planned(script, photoIDs: photoIDs)
                Self.describeTimes(changes, state: script.session.state)
                try await Self.apply(changes, script: script, jsonl: jsonl)
            }
        }
    }

    @MainActor
    private func planned(_ script: ScriptSession, photoIDs: [Int]) throws(ScriptExit) -> [PhotoFieldChange] {
        do {
            return try script.session.state.changes(for: request, photoIDs: photoIDs)
        } catch {
            throw .usage(error.description)
        }
    }

    /// Opens the photos' names and titles in the editor and returns what to change, once confirmed.
    @MainActor
    private func editInEditor(_ script: ScriptSession, photoIDs: [Int]) throws(ScriptExit) -> [PhotoFieldChange] {
        let entries = script.session.state.bulkEditEntries(photoIDs)
        let editor = ExternalEditor(folder: script.session.stateDirectory.appending(path: "edits", directoryHint: .isDirectory), clock: script.session.clock)
        switch editor.edit(entries) {
        case .unchanged:
            FileHandle.standardError.write(Data("photopick edit: nothing changed in the editor.\n".utf8))
            return []
        case .failed(let reason):
            throw ScriptExit(code: 1, message: reason)
        case .changes(let changes, let file):
            let summary = BulkEditFile.summary(changes)
            if !yes {
                guard Confirmation.ask("photopick edit: \(summary). Apply? [y/N] ", expecting: ["y", "yes"]) else {
                    editor.discard(file)
                    throw ScriptExit(code: 1, message: "not applied; nothing was changed")
                }
            }
            editor.discard(file)
            return changes.flatMap(\.fieldChanges)
        }
    }

    /// A new capture time, before and after, for the first and last photo by time, on stderr: what a
    /// shift did is seen before anything else is read.
    @MainActor
    static func describeTimes(_ changes: [PhotoFieldChange], state: BrowserState) {
        let times = changes.filter { $0.field == .takenAt }.compactMap { change -> (String, Date, String)? in
            guard let index = state.library.index(ofID: change.photoID) else { return nil }
            let photo = state.library.photo(at: index)
            guard let before = photo.takenAt else { return nil }
            return (photo.filename, before, change.value ?? "none")
        }.sorted { $0.1 < $1.1 }
        let ends = times.count > 1 ? [times[0], times[times.count - 1]] : times
        for (name, before, after) in ends {
            let line = "\(TerminalText.sanitized(name)): \(ISO8601.string(from: before)) → \(after)"
            FileHandle.standardError.write(Data("photopick edit: \(line)\n".utf8))
        }
    }

    /// Records the changes (one outbox write), waits until the server has them all or refused some,
    /// and reports each photo.
    @MainActor
    static func apply(_ changes: [PhotoFieldChange], script: ScriptSession, jsonl: Bool) async throws(ScriptExit) {
        var output = OutputBuffer(lineByLine: true)
        // Edits of these photos an earlier run recorded and did not send (killed, offline) go now too.
        let waiting = Set(changes.map(\.photoID)).union(script.session.state.photosWithUnsentEdits)
        guard !waiting.isEmpty else {
            if jsonl { output.line(#"{"edited":0,"event":"summary","failed":0}"#) }
            FileHandle.standardError.write(Data("photopick edit: the photos already have those values; nothing to send.\n".utf8))
            return
        }
        let photoIDs = waiting
        if !changes.isEmpty {
            script.session.send(.edits(.photosEdited(changes, exact: true)))
            if let warning = script.session.state.message, warning.severity != .info, script.session.state.unsentPhotoEdits == 0 {
                throw ScriptExit(code: 1, message: warning.text)
            }
        }
        await script.wait { state in state.unsentPhotoEdits == 0 }
        let refused = script.editRejections.filter { photoIDs.contains($0.photoID) }
        let failed = Set(refused.map(\.photoID))
        for id in photoIDs.sorted() {
            guard jsonl else { break }
            var event: [String: Any] = ["id": id]
            if let reason = refused.first(where: { $0.photoID == id })?.reason {
                event["event"] = "failed"
                event["reason"] = reason
            } else {
                event["event"] = "edited"
                for change in changes where change.photoID == id { event[change.field.rawValue] = change.value ?? NSNull() }
            }
            output.line(JSONLine.text(event))
        }
        let edited = photoIDs.count - failed.count
        if jsonl { output.line(#"{"edited":\#(edited),"event":"summary","failed":\#(failed.count)}"#) }
        if let first = refused.first {
            // One line: the refusal, with what did go through.
            let done = edited > 0 ? " (\(edited) edited)" : ""
            throw ScriptExit(code: 1, message: "the server refused \(failed.count) of \(photoIDs.count)\(done): photo \(first.photoID): \(first.reason)")
        }
        FileHandle.standardError.write(Data("photopick edit: edited \(edited) photo\(edited == 1 ? "" : "s").\n".utf8))
    }
}

/// A yes-or-no question on the terminal, for a verb about to do what cannot be taken back.
enum Confirmation {
    /// Asks on the terminal (even when standard input is a pipe) and reads one line; false without a
    /// terminal, or on anything but `expecting`.
    static func ask(_ question: String, expecting answers: Set<String>) -> Bool {
        guard let terminal = FileHandle(forUpdatingAtPath: "/dev/tty") else { return false }
        defer { try? terminal.close() }
        terminal.write(Data(question.utf8))
        var line: [UInt8] = []
        while true {
            let byte = terminal.readData(ofLength: 1)
            guard let first = byte.first, first != 0x0A else { break }
            line.append(first)
        }
        let answer = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return answers.contains(answer)
    }
}
