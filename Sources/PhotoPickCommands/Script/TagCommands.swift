import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit
import TerminalUI

/// `photopick tags`: every tag with its colour and how many photos carry it.
struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List the tags, with their colours and how many photos carry each."
    )

    @OptionGroup var library: LibraryOptions

    @Flag(help: "One JSON array: id, name, color, photos, and mark (pick, rating_3, red…) for the culling marks.")
    var json = false

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("tags") { () async throws(ScriptExit) in
            try await ScriptSession.withLibrary(library, refresh: .manual) { script throws(ScriptExit) in
                printTags(script.session.state)
            }
        }
    }

    struct ListedTag: Encodable {
        let id: Int
        let name: String
        let color: String?
        let photos: Int
        let mark: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(color, forKey: .color)
            try container.encode(photos, forKey: .photos)
            try container.encode(mark, forKey: .mark)
        }

        private enum Keys: String, CodingKey { case id, name, color, photos, mark }
    }

    @MainActor
    private func printTags(_ state: BrowserState) {
        let tags = state.tags.tags.map { tag in
            ListedTag(id: tag.id, name: tag.name, color: tag.color, photos: state.library.count(ofTag: tag.id), mark: state.tags.mark(ofTag: tag.id)?.configKey)
        }
        var output = OutputBuffer()
        if json {
            let encoder = ListedPhoto.encoder()
            output.line((try? encoder.encode(tags)).map { String(decoding: $0, as: UTF8.self) } ?? "[]")
        } else {
            for line in Self.table(tags) { output.line(line) }
        }
        output.flush()
    }

    /// Name, colour and photo count in columns, the names made safe for a terminal.
    static func table(_ tags: [ListedTag]) -> [String] {
        let width = max(4, tags.map { DisplayWidth.of(TerminalText.sanitized($0.name)) }.max() ?? 0)
        var lines = ["NAME".padded(toColumns: width) + "  COLOUR    PHOTOS"]
        for tag in tags {
            let name = TerminalText.sanitized(tag.name)
            lines.append(name.padded(toColumns: width) + "  " + String((tag.color ?? "—").prefix(8)).padded(toColumns: 8)
                         + String(tag.photos).padded(toColumns: 8, alignRight: true) + (tag.mark.map { "  (\($0) mark)" } ?? ""))
        }
        return lines
    }
}

/// `photopick tag add|rm NAME [QUERY | --ids …]`: through the outbox, as a key in the browser would.
struct TagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add a tag to photos or take it off, through the same outbox as the browser.",
        subcommands: [Add.self, Remove.self]
    )

    /// What `add` and `rm` share.
    struct Choice: ParsableArguments {
        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("The tag's name (any case).", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The photos, as a query after / in the browser; all photos when empty and no --ids.", valueName: "query"))
        var query: [String] = []

        @Option(help: ArgumentHelp("The photos by id, comma-separated, instead of a query.", valueName: "ids"))
        var ids: String?

        func validate() throws {
            if ids != nil, !query.isEmpty { throw ValidationError("give a query or --ids, not both.") }
            if let ids, Self.parse(ids) == nil { throw ValidationError("--ids \(ids) is not a list of photo ids; write them like 12,40,41.") }
            if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("the tag needs a name.") }
        }

        static func parse(_ ids: String) -> [Int]? {
            let parts = ids.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = parts.compactMap { Int($0) }.filter { $0 > 0 }
            return numbers.count == parts.count && !numbers.isEmpty ? numbers : nil
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add the tag, creating it when there is none of that name.")
        @OptionGroup var choice: Choice
        func run() async throws { try await TagCommand.edit(choice, .add) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Take the tag off.")
        @OptionGroup var choice: Choice
        func run() async throws { try await TagCommand.edit(choice, .remove) }
    }

    @MainActor
    static func edit(_ choice: Choice, _ change: TagChange) async throws {
        let verb = change == .add ? "tag add" : "tag rm"
        try await runScript(verb) { () async throws(ScriptExit) in
            try await ScriptSession.withLibrary(choice.library, refresh: .manual) { script throws(ScriptExit) in
                try await apply(choice, change, script)
            }
        }
    }

    @MainActor
    private static func apply(_ choice: Choice, _ change: TagChange, _ script: ScriptSession) async throws(ScriptExit) {
        let state = script.session.state
        let photoIDs: [Int]
        if let ids = choice.ids.flatMap(Choice.parse) {
            let unknown = ids.filter { state.library.index(ofID: $0) == nil }
            if !unknown.isEmpty {
                throw .usage("no photo \(unknown.map(String.init).joined(separator: ", ")) in the library; photopick ls --refresh lists them")
            }
            photoIDs = ids
        } else {
            photoIDs = try script.filter(choice.query.joined(separator: " ")).map { state.library.id(at: $0) }
        }
        let name = choice.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let existing = state.tags.tags.first(named: name)
        let shown = TerminalText.sanitized(name)
        let before = state.photos(photoIDs, carryingTagNamed: name)
        switch (existing, change) {
        case (nil, .remove):
            throw .usage("there is no tag “\(shown)”; photopick tags lists them")
        case (nil, .add) where photoIDs.isEmpty:
            try await create(name, shown: shown, script)
            FileHandle.standardError.write(Data("photopick: Created “\(shown)”; no photos matched.\n".utf8))
            return
        case (nil, .add):
            // The tag's creation and its edits are one outbox write, done before this returns.
            script.session.send(.tags(.tagCreationRequested(name: name, color: nil, applyTo: photoIDs)))
        case (let tag?, _):
            script.session.send(.tags(.tagEditRequested(tagID: tag.id, change: change, photoIDs: photoIDs)))
        }
        // Photos, not edits: a mark's sibling taken off the same photo is part of one change to it.
        let after = script.session.state.photos(photoIDs, carryingTagNamed: name)
        let changed = before.symmetricDifference(after).count
        if let warning = script.session.state.message, warning.severity != .info, changed == 0 {
            throw ScriptExit(code: 1, message: warning.text)
        }
        // Sent as the browser sends them: read-modify-write per photo, through the pacer; kept in the
        // outbox until the server has them, so an interrupted run loses nothing.
        await script.wait { state in state.unsentTagDeltas == 0 || !script.rejections.isEmpty }
        let unchanged = Set(photoIDs).count - changed
        let what = change == .add ? "Added “\(shown)” to" : "Took “\(shown)” off"
        let note = unchanged > 0 ? " (\(unchanged) already \(change == .add ? "had it" : "lacked it"))" : ""
        FileHandle.standardError.write(Data("photopick: \(what) \(changed) photo\(changed == 1 ? "" : "s")\(note).\n".utf8))
        if let rejection = script.rejections.first {
            throw ScriptExit(code: 1, message: "the server refused \(script.rejections.count) change\(script.rejections.count == 1 ? "" : "s"): \(rejection)")
        }
    }

    /// Creates a tag for no photos, waiting for the server's answer.
    @MainActor
    private static func create(_ name: String, shown: String, _ script: ScriptSession) async throws(ScriptExit) {
        script.session.send(.tags(.tagCreationRequested(name: name, color: nil, applyTo: [])))
        await script.wait { state in state.tags.tags.first(named: name) != nil || state.message?.severity == .error }
        guard script.session.state.tags.tags.first(named: name) != nil else {
            throw ScriptExit(code: 1, message: "could not create the tag “\(shown)”: \(script.session.state.message?.text ?? "no answer")")
        }
    }
}
