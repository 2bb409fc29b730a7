import ArgumentParser
import Foundation

/// `photopick-bench link`: the built browser over a link, in every mode: a pty read at the link's rate,
/// queries answered a round trip later, keys arriving half a round trip after they are pressed. A
/// window of 160×50 cells of 10×20 pixels, the demo library, full screen (`p`), then `j`, then ten `j`
/// at 12 keys a second; beside the bytes of the JPEG the web app would load for the same photo.
struct LinkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "A photo after j, over a link read at a set rate with a set round trip, in every mode."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "The link's rates, MB/s.")
    var rates: [Double] = [2.5, 0.6]

    @Option(help: "The link's round trips, ms.")
    var roundTrips: [Int] = [60, 20, 300]

    @Option(help: "The modes: kitty, sixel, iterm, symbols, and kitty-local (kitty on this machine, through shared memory).")
    var modes: [String] = ["kitty", "sixel", "iterm", "symbols", "kitty-local"]

    @Option(help: "The photopick binary (default: beside this one).")
    var binary: String?

    @Flag(help: "Keep each run's folder, with photopick's debug log, and say where.")
    var keep = false

    func run() async throws {
        let binary = binary ?? URL(fileURLWithPath: ChildProcess.ownExecutable).deletingLastPathComponent().appending(path: "photopick").path
        var figures: [Figure] = []
        let shared = try scratchDirectory("link-shared")
        defer { try? FileManager.default.removeItem(at: shared) }
        note("warming the preview cache: the first 25 photos full screen")
        try warm(binary: binary, shared: shared)
        // The web app's JPEG for a full-screen photo, from the renditions the warming fetched.
        let web = try Self.webBytes(cache: shared.appending(path: "cache/photopick/previews"))
        for rate in rates {
            for trip in roundTrips where rate == rates[0] || trip == roundTrips[0] {
                let link = LinkTerminal.Link(rate: rate * 1e6, roundTrip: .milliseconds(trip))
                for mode in modes {
                    let result = try measure(binary: binary, mode: mode, link: link, shared: shared)
                    let label = "\(mode) @ \(link)"
                    note(String(format: "%@: one j %.2f MB, first image %.2f s, complete %.2f s; ten j %.2f MB, quiet %.2f s after; text behind an image %.0f ms",
                                label, result.oneBytes / 1e6, result.firstImage, result.complete, result.tenBytes / 1e6, result.tenQuiet, result.textDelay * 1000))
                    let standard = rate == 2.5 && trip == 60
                    let webTime = web / link.rate + link.roundTrip.inSeconds
                    let bytesTarget: (String, Bool) = switch mode {
                    case "kitty" where standard: ("<= 1.6 MB", result.oneBytes <= 1.6e6)
                    case "kitty-local": ("<= 4 KB", result.oneBytes <= 4096)
                    default: ("report", true)
                    }
                    figures.append(Figure(name: "\(label): bytes for one j", value: result.oneBytes / 1e6, unit: "MB", reference: "web app JPEG",
                                          referenceValue: web / 1e6, ratio: result.oneBytes / web, target: bytesTarget.0, met: bytesTarget.1))
                    figures.append(Figure(name: "\(label): j until complete", value: result.complete, unit: "s", reference: "web app JPEG",
                                          referenceValue: webTime, ratio: result.complete / webTime, target: standard ? "<= 0.6 s" : "report",
                                          met: !standard || result.complete <= 0.6))
                    figures.append(Figure(name: "\(label): j until first image", value: result.firstImage, unit: "s", reference: "web app JPEG",
                                          referenceValue: webTime, ratio: result.firstImage / webTime, target: standard ? "<= 0.3 s" : "report",
                                          met: !standard || result.firstImage <= 0.3))
                    figures.append(Figure(name: "\(label): ten j, quiet after", value: result.tenQuiet, unit: "s", reference: "budget",
                                          referenceValue: 0.7, ratio: result.tenQuiet / 0.7, target: standard ? "<= 0.7 s" : "report",
                                          met: !standard || result.tenQuiet <= 0.7))
                    figures.append(Figure(name: "\(label): ten j, bytes", value: result.tenBytes / 1e6, unit: "MB", reference: "web app JPEGs",
                                          referenceValue: 10 * web / 1e6, ratio: result.tenBytes / (10 * web), target: "report", met: true))
                    let textBudget = link.roundTrip.inSeconds + 0.05
                    figures.append(Figure(name: "\(label): text behind an image", value: result.textDelay * 1000, unit: "ms", reference: "round trip + 50 ms",
                                          referenceValue: textBudget * 1000, ratio: result.textDelay / textBudget, target: "<= round trip + 50 ms",
                                          met: result.textDelay <= textBudget))
                }
            }
        }
        Report.print(figures, json: options.json)
    }

    struct Result {
        var oneBytes = 0.0, firstImage = 0.0, complete = 0.0, tenBytes = 0.0, tenQuiet = 0.0, textDelay = 0.0
    }

    /// The environment of one run: the demo library and the preview cache shared by every run (warmed
    /// once, so figures are the link's, not the demo server's rendering), state and config its own.
    private func environment(shared: URL, run: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !["TMUX", "TMUX_PANE", "PHOTOPICK_API_KEY", "COLORTERM", "TERM_PROGRAM"].contains($0.key) }
        environment["XDG_DATA_HOME"] = shared.appending(path: "data").path
        environment["XDG_CACHE_HOME"] = shared.appending(path: "cache").path
        environment["XDG_STATE_HOME"] = run.appending(path: "state").path
        environment["XDG_CONFIG_HOME"] = run.appending(path: "config").path
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        environment["LANG"] = "C.UTF-8"
        return environment
    }

    /// Walks the first photos full screen once, on a fast link, so their renditions are in the cache.
    func warm(binary: String, shared: URL) throws {
        let run = try scratchDirectory("link-warm")
        defer { try? FileManager.default.removeItem(at: run) }
        let terminal = try LinkTerminal(binary: binary, arguments: ["--graphics", "kitty", "--log-level", "debug"],
                                        environment: environment(shared: shared, run: run), columns: 160, rows: 50,
                                        link: LinkTerminal.Link(rate: 1e9, roundTrip: .milliseconds(1)), local: true)
        defer { terminal.stop() }
        let log = PlacementLog(url: run.appending(path: "state/photopick/photopick.log"))
        guard log.waitForWhole(after: 0, limit: .seconds(120)) else { throw BenchError("warming: no image placed") }
        terminal.press("p")
        for _ in 0..<24 {
            let seen = log.count
            guard log.waitForWhole(after: seen, limit: .seconds(60)) else { throw BenchError("warming: an image never came") }
            terminal.press("j")
        }
    }

    private func measure(binary: String, mode: String, link: LinkTerminal.Link, shared: URL) throws -> Result {
        let run = try scratchDirectory("link")
        defer {
            if keep { note("\(mode) @ \(link): kept \(run.path)") } else { try? FileManager.default.removeItem(at: run) }
        }
        let local = mode == "kitty-local", symbols = mode == "symbols"
        let arguments = ["--graphics", local ? "kitty" : mode, "--download-dir", run.appending(path: "downloads").path, "--log-level", "debug"]
        let terminal = try LinkTerminal(binary: binary, arguments: arguments, environment: environment(shared: shared, run: run),
                                        columns: 160, rows: 50, link: link, local: local)
        defer { terminal.stop() }
        let log = PlacementLog(url: run.appending(path: "state/photopick/photopick.log"))
        let quiet = max(Duration.milliseconds(500), link.roundTrip * 3)
        /// Until the photo is whole on screen (its placement logged, or for symbols its preview drawn),
        /// then no byte for `quiet`: when the last byte came.
        func settle(after lines: Int) -> Duration {
            if !symbols { _ = log.waitForWhole(after: lines, limit: .seconds(60)) } else { usleep(300_000) }
            return terminal.waitQuiet(quiet)
        }
        // The list, its side pane settled; then full screen, settled.
        guard terminal.waitFor(.text, after: benchClock.elapsed() - .seconds(1), limit: .seconds(30)) != nil else { throw BenchError("\(mode): photopick drew nothing") }
        _ = settle(after: 0)
        var lines = log.count
        terminal.press("p")
        _ = settle(after: lines)
        var result = Result()
        // One j: what it costs and how long until the photo is on screen and whole.
        var before = terminal.bytesRead
        lines = log.count
        let pressed = terminal.press("j")
        let first = terminal.waitFor(symbols ? .text : .image, after: pressed + link.roundTrip / 2, limit: .seconds(30))
        let last = settle(after: lines)
        result.oneBytes = Double(terminal.bytesRead - before)
        result.firstImage = first.map { ($0 - pressed).inSeconds } ?? .infinity
        result.complete = (last - pressed).inSeconds
        // A j, then a k while the next photo is on its way: how long the k's text waits behind it.
        lines = log.count
        terminal.press("j")
        if !symbols { _ = terminal.waitFor(.image, after: benchClock.elapsed(), limit: .seconds(30)) } else { usleep(UInt32(link.roundTrip.inSeconds * 1e6) + 100_000) }
        let moved = terminal.press("k")
        let text = terminal.waitFor(.text, after: moved + link.roundTrip / 2, limit: .seconds(30))
        result.textDelay = text.map { ($0 - moved).inSeconds } ?? .infinity
        _ = settle(after: log.count)
        // Ten j at 12 keys a second.
        before = terminal.bytesRead
        lines = log.count
        var lastKey = benchClock.elapsed()
        for _ in 0..<10 {
            lastKey = terminal.press("j")
            usleep(83_000)
        }
        let settled = settle(after: lines)
        result.tenBytes = Double(terminal.bytesRead - before)
        result.tenQuiet = max(0, (settled - lastKey).inSeconds)
        return result
    }

    /// The mean size of the full-screen renditions cached (`fhd`, else the largest kind there): what the
    /// web app loads for the same photos.
    private static func webBytes(cache: URL) throws -> Double {
        let files = (try? FileManager.default.contentsOfDirectory(at: cache, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        for kind in ["-fhd-", "-web-"] {
            let sizes = files.filter { $0.lastPathComponent.contains(kind) }.compactMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize }
            if !sizes.isEmpty { return Double(sizes.reduce(0, +)) / Double(sizes.count) }
        }
        throw BenchError("no rendition in the preview cache at \(cache.path) to compare with")
    }
}

/// photopick's debug log, read for its lines saying an image was placed whole (not a reduced one first).
/// Only what was added since the last look is read: the log grows through the run.
final class PlacementLog {
    let url: URL
    private var offset: UInt64 = 0
    private var pending: [UInt8] = []
    private var lines: [String] = []

    init(url: URL) {
        self.url = url
    }

    /// Whole lines logged so far.
    var count: Int {
        readNew()
        return lines.count
    }

    /// Waits for a whole image's placement logged after line `after`; whether one came within `limit`.
    func waitForWhole(after: Int, limit: Duration) -> Bool {
        let deadline = benchClock.elapsed() + limit
        while benchClock.elapsed() < deadline {
            readNew()
            if after < lines.count, lines[after...].contains(where: { $0.contains("image placed:") && !$0.contains("(reduced") }) { return true }
            usleep(20_000)
        }
        return false
    }

    private func readNew() {
        guard let file = FileHandle(forReadingAtPath: url.path) else { return }
        defer { try? file.close() }
        try? file.seek(toOffset: offset)
        guard let data = try? file.readToEnd(), !data.isEmpty else { return }
        offset += UInt64(data.count)
        pending += data
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<end], as: UTF8.self))
            pending.removeSubrange(...end)
        }
    }
}
