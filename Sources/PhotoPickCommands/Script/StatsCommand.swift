import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickFormats
import TerminalUI

/// `photopick stats [QUERY]`: the photos a query matches in figures, from the catalogue alone: per day,
/// month or year, cameras, lenses, focal lengths, ISO, aperture and marks; as text or `--json`.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "The photos a query matches in figures: per day or month, cameras, lenses, focal lengths, ISO, aperture, marks.",
        discussion: """
            QUERY is what you would type after / in the browser; without one, the whole library. Each figure \
            comes with the query term that lists its photos (taken:2024-06, lens:"XF23mmF1.4 R LM WR"). \
            Days are in this machine's time zone, as taken: reads them. Exit codes as for ls.
            """
    )

    @OptionGroup var library: LibraryOptions

    @Argument(help: ArgumentHelp("The query, as after / in the browser; several words are one query.", valueName: "query"))
    var query: [String] = []

    @Flag(help: "One JSON object: counts as numbers, every day and every bar with its query term.")
    var json = false

    @Flag(help: "Walk the server's library first, so the figures are current.")
    var refresh = false

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("stats") { () async throws(ScriptExit) in
            try await ScriptSession.withLibrary(library, refresh: refresh ? .onStart : .manual) { script throws(ScriptExit) in
                let indices = try script.filter(query.joined(separator: " "))
                let stats = script.session.state.libraryStats(of: indices)
                var output = OutputBuffer(lineByLine: false)
                for line in json ? [Self.json(stats)] : Self.text(stats) { output.line(line) }
                output.flush()
            }
        }
    }

    /// The figures as one JSON object; numbers as numbers, days as `YYYY-MM-DD`.
    static func json(_ stats: LibraryStats) -> String {
        struct Document: Encodable {
            let photos: Int
            let summary: CullSummary
            let undated: Int
            let days: [Day]
            let months: [LibraryStats.Bar]
            let cameras, lenses, focalLengths, iso, aperture, ratings, flags, labels: [LibraryStats.Bar]
            struct Day: Encodable { let day: String; let count: Int }
        }
        // The days with photos, from the counts themselves: a timeline from a photo dated year 1 would be
        // 740,000 empty days.
        let days = stats.days.sorted { $0.key < $1.key }.map { Document.Day(day: LibraryStats.dayText($0.key), count: $0.value) }
        let document = Document(
            photos: stats.summary.photos, summary: stats.summary, undated: stats.undated, days: days,
            months: stats.months(), cameras: stats.cameras, lenses: stats.lenses,
            focalLengths: stats.focalLengths, iso: stats.isos, aperture: stats.apertures, ratings: stats.ratings, flags: stats.flags, labels: stats.labels
        )
        // The encoder every JSON photopick writes is made by.
        return (try? ListedPhoto.encoder().encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The figures as text: a line per bar, its count and a bar of blocks scaled to the section's largest.
    static func text(_ stats: LibraryStats) -> [String] {
        let step = stats.step(fitting: 60)
        var sections: [(String, [LibraryStats.Bar])] = [("Photos per \(step.rawValue)", stats.timeline(step).filter { $0.count > 0 })]
        sections += [
            ("Cameras", stats.cameras), ("Lenses", stats.lenses), ("Focal lengths", stats.focalLengths), ("ISO", stats.isos),
            ("Aperture", stats.apertures), ("Ratings", stats.ratings), ("Flags", stats.flags), ("Labels", stats.labels),
        ]
        var lines = [Self.summaryLine(stats.summary) + (stats.undated > 0 ? "; \(stats.undated.formatted()) undated" : "")]
        for (title, bars) in sections where !bars.isEmpty {
            lines.append("")
            lines.append(title)
            let labelWidth = bars.map { DisplayWidth.of(TerminalText.sanitized($0.label)) }.max() ?? 0
            let countWidth = bars.map { $0.count.formatted().count }.max() ?? 0
            let tallest = max(1, bars.map(\.count).max() ?? 1)
            for bar in bars {
                let blocks = bar.count == 0 ? "" : String(repeating: "█", count: max(1, bar.count * 30 / tallest))
                lines.append("  " + TerminalText.sanitized(bar.label).padded(toColumns: labelWidth) + "  "
                             + bar.count.formatted().padded(toColumns: countWidth, alignRight: true) + "  " + blocks)
            }
        }
        return lines
    }

    /// "2,000 photos: 120 picked, 40 rejected, 300 rated, 25 labelled, 1,560 untouched".
    static func summaryLine(_ summary: CullSummary) -> String {
        return "\(Figures.count(summary.photos, "photo")): \(summary.picked.formatted()) picked, \(summary.rejected.formatted()) rejected, \(summary.rated.formatted()) rated, "
            + "\(summary.labelled.formatted()) labelled, \(summary.untouched.formatted()) untouched"
    }
}
