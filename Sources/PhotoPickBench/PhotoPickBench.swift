import ArgumentParser
import Foundation
import PhotoPickKit

/// `photopick-bench`: figures beside their reference tools, measured in the same run. Build it in release.
@main
struct PhotoPickBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photopick-bench",
        abstract: "Measure photopick against reference tools, side by side in one run.",
        subcommands: [
            ListBenchmark.self, DownloadBenchmark.self, ModelBenchmark.self, RenderBenchmark.self, PreviewBenchmark.self,
            DecodeBenchmark.self, GraphicsBenchmark.self, BudgetBenchmark.self, LinkBenchmark.self, ResponsivenessBenchmark.self,
            OriginalsBenchmark.self, ServerHelper.self, WarmHelper.self, WalkHelper.self, DownloadHelper.self, ModelHelper.self, ScrollHelper.self, LoupeHelper.self,
        ]
    )
}

/// Options every benchmark takes.
struct BenchOptions: ParsableArguments {
    @Flag(help: "Print one JSON object: {\"figures\": [...]}.")
    var json = false

    @Option(help: "Runs of each contender; the median counts.")
    var rounds = 3

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1: the median of no runs is no figure") }
    }
}

/// A private scratch directory, removed by the caller.
func scratchDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "photopick-bench-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes a file only its owner can read: curl and aria2 take the key from such a file, not from argv.
func writePrivateFile(_ text: String, to url: URL) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
    try Data(text.utf8).write(to: url)
}

/// Quotes a value for a curl config file.
func curlQuoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// The bench's one clock, as every entry point has: the real one, given to everything it opens and
/// dating every event it feeds a state by hand.
let benchClock = Timekeeper.continuous

extension Timekeeper {
    /// How long `work` takes on this clock.
    func measure(_ work: () throws -> Void) rethrows -> Duration {
        let start = elapsed()
        try work()
        return elapsed() - start
    }
}
