import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickFormats

/// `photopick ls [QUERY]`: the photos a query matches, as a table, JSON, JSON Lines or a template.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the photos a query matches: a table, --json, --jsonl or --format.",
        discussion: """
            QUERY is what you would type after / in the browser: words match names and text, #tag a tag, \
            and terms such as rating>=3, flag:pick, label:red, taken:2024-06, sharp>=4. Without --refresh the \
            catalogue is listed as the browser last saw it (the server is walked only when it never was). \
            Exit codes: 0 ok, 2 usage, config or a bad query term, 3 key refused, 4 network unreachable, 1 else.
            """
    )

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The query, as after / in the browser; several words are one query.", valueName: "query"))
    var query: [String] = []

    @Flag(help: "One JSON array of the photos.")
    var json = false

    @Flag(help: "One JSON object per line, written as each is ready.")
    var jsonl = false

    @Option(help: ArgumentHelp("A line per photo from a template, such as '{id}\\t{filename}\\t{taken:%Y-%m-%d}'.", valueName: "template"))
    var format: String?

    @Flag(help: "Walk the server's library first, so the list is current.")
    var refresh = false

    @Flag(help: "Where the photos stand in culling instead of the photos: picked, rejected, rated, labelled, untouched (with --json, one object).")
    var summary = false

    func validate() throws {
        if [json, jsonl, format != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--json, --jsonl and --format each choose the output; give one of them.")
        }
        if summary, jsonl || format != nil {
            throw ValidationError("--summary prints counts: as a line, or with --json as one object; not with --jsonl or --format.")
        }
        if let format {
            do { _ = try PhotoTemplate(format) } catch { throw ValidationError("--format: \(error)") }
        }
    }

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("ls") { () async throws(ScriptExit) in
            try await ScriptSession.withLibrary(library, refresh: refresh ? .onStart : .manual) { script throws(ScriptExit) in
                let indices = try script.filter(query.joined(separator: " "))
                if summary { return printSummary(indices, state: script.session.state) }
                print(indices, state: script.session.state)
            }
        }
    }

    @MainActor
    private func printSummary(_ indices: [Int], state: BrowserState) {
        let counts = state.cullSummary(of: indices)
        var output = OutputBuffer(lineByLine: false)
        if json {
            output.line((try? ListedPhoto.encoder().encode(counts)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        } else {
            output.line(StatsCommand.summaryLine(counts))
        }
        output.flush()
    }

    @MainActor
    private func print(_ indices: [Int], state: BrowserState) {
        var output = OutputBuffer(lineByLine: jsonl)
        let encoder = ListedPhoto.encoder()
        func encoded(_ index: Int) -> String {
            (try? encoder.encode(state.listedPhoto(at: index))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
        if jsonl {
            for index in indices { output.line(encoded(index)) }
        } else if json {
            output.line("[")
            for (position, index) in indices.enumerated() { output.line(encoded(index) + (position == indices.count - 1 ? "" : ",")) }
            output.line("]")
        } else if let format, let template = try? PhotoTemplate(format) {
            // A line per photo: a field's control characters (a tab or newline in a name) would break it.
            for index in indices { output.line(template.render(state.listedPhoto(at: index), clean: TerminalText.sanitized)) }
        } else {
            for line in Self.table(indices.map(state.listedPhoto(at:))) { output.line(line) }
        }
        output.flush()
    }

    /// ID, capture time, size, marks, name and tags in columns, every text made safe for a terminal.
    static func table(_ photos: [ListedPhoto]) -> [String] {
        let idWidth = max(2, photos.map { String($0.id).count }.max() ?? 0)
        var lines = ["ID".padded(toColumns: idWidth, alignRight: true) + "  TAKEN             SIZE      MARKS        NAME  TAGS"]
        for photo in photos {
            let taken = photo.takenAt.map { _ in PhotoTemplate.value("taken", format: "%Y-%m-%d %H:%M", of: photo) } ?? "—"
            let marks = [photo.marks.flag, photo.marks.rating.map { String(repeating: "*", count: $0) }, photo.marks.label]
                .compactMap { $0 }.joined(separator: " ")
            let name = TerminalText.sanitized(photo.filename)
            let tags = photo.tags.map(TerminalText.sanitized).joined(separator: ", ")
            let columns = [
                String(photo.id).padded(toColumns: idWidth, alignRight: true), taken.padded(toColumns: 16),
                Figures.bytes(photo.bytes).padded(toColumns: 9, alignRight: true), marks.padded(toColumns: 12),
                name + (tags.isEmpty ? "" : "  " + tags),
            ]
            lines.append(columns.joined(separator: "  "))
        }
        return lines
    }
}
