import ArgumentParser
import Foundation
import PhotoBrowser

/// Which photos a verb acts on, as `get`, `edit` and `rm` take them: a query, `--ids 1,2,3`, or `-` for
/// ids on standard input.
struct PhotoChoice: ParsableArguments {
    @Argument(help: ArgumentHelp("The query, as after / in the browser; - reads photo ids from standard input.", valueName: "query"))
    var query: [String] = []

    @Option(help: ArgumentHelp("Photo ids, comma-separated, instead of a query.", valueName: "ids"))
    var ids: String?

    func validate() throws {
        if let ids, TagCommand.Choice.parse(ids) == nil { throw ValidationError("--ids \(ids) is not a list of photo ids; write them like 12,40,41.") }
        if ids != nil, !query.isEmpty { throw ValidationError("give a query, --ids or -, not two of them.") }
    }

    /// Whether the ids come from standard input.
    var readsStandardInput: Bool { query == ["-"] }

    /// Ids from standard input, one or more per line, separated by blanks or commas.
    static func readIDs() throws(ScriptExit) -> [Int] {
        var ids: [Int] = []
        while let line = readLine() {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
                guard let id = Int(word), id > 0 else { throw .usage("“\(TerminalText.sanitized(String(word)))” on standard input is not a photo id") }
                ids.append(id)
            }
        }
        return ids
    }

    /// The chosen photos' ids, each once, in the order given (ids) or listed (a query). `standardInput`
    /// holds the ids read before the library was opened.
    @MainActor
    func photoIDs(_ script: ScriptSession, standardInput: [Int]?) throws(ScriptExit) -> [Int] {
        let state = script.session.state
        guard let listed = standardInput ?? ids.flatMap(TagCommand.Choice.parse) else {
            return try script.filter(query.joined(separator: " ")).map { state.library.id(at: $0) }
        }
        let unknown = listed.filter { state.library.index(ofID: $0) == nil }
        if !unknown.isEmpty { throw .usage("no photo \(unknown.prefix(5).map(String.init).joined(separator: ", ")) in the library; photopick ls --refresh lists them") }
        var seen = Set<Int>()
        return listed.filter { seen.insert($0).inserted }
    }
}
