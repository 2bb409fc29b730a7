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
        // The web app's JPEG for one full-screen photo: the demo's `fhd` rendition, measured once below.
        var webBytes: Double?
        for rate in rates {
            for trip in roundTrips where rate == rates[0] || trip == roundTrips[0] {
                let link = LinkTerminal.Link(rate: rate * 1e6, roundTrip: .milliseconds(trip))
                for mode in modes {
                    let result = try measure(binary: binary, mode: mode, link: link)
                    if webBytes == nil { webBytes = result.webBytes }
                    let web = webBytes ?? result.webBytes
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
        var oneBytes = 0.0, firstImage = 0.0, complete = 0.0, tenBytes = 0.0, tenQuiet = 0.0, textDelay = 0.0, webBytes = 0.0
    }

    private func measure(binary: String, mode: String, link: LinkTerminal.Link) throws -> Result {
        let scratch = try scratchDirectory("link")
        defer {
            if keep { note("\(mode) @ \(link): kept \(scratch.path)") } else { try? FileManager.default.removeItem(at: scratch) }
        }
        var environment = ProcessInfo.processInfo.environment.filter { !["TMUX", "TMUX_PANE", "PHOTOPICK_API_KEY", "COLORTERM", "TERM_PROGRAM"].contains($0.key) }
        for (name, folder) in [("XDG_STATE_HOME", "state"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")] {
            environment[name] = scratch.appending(path: folder).path
        }
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        environment["LANG"] = "C.UTF-8"
        let local = mode == "kitty-local"
        let arguments = ["--graphics", local ? "kitty" : mode, "--download-dir", scratch.appending(path: "downloads").path] + (keep ? ["--log-level", "debug"] : [])
        let terminal = try LinkTerminal(binary: binary, arguments: arguments, environment: environment, columns: 160, rows: 50, link: link, local: local)
        defer { terminal.stop() }
        let quiet = max(Duration.milliseconds(600), link.roundTrip * 3)
        // The list, its side pane settled; then full screen, settled.
        guard terminal.waitFor(.text, after: .now - .seconds(1), limit: .seconds(30)) != nil else { throw BenchError("\(mode): photopick drew nothing") }
        _ = terminal.waitQuiet(quiet, limit: .seconds(60))
        terminal.press("p")
        usleep(200_000)
        _ = terminal.waitQuiet(quiet, limit: .seconds(60))
        var result = Result()
        // One j: what it costs and how long until the photo is on screen and complete.
        var before = terminal.bytesRead
        let pressed = terminal.press("j")
        let first = terminal.waitFor(mode == "symbols" ? .text : .image, after: pressed, limit: .seconds(30))
        let last = terminal.waitQuiet(quiet)
        result.oneBytes = Double(terminal.bytesRead - before)
        result.firstImage = first.map { ($0 - pressed).inSeconds } ?? .infinity
        result.complete = (last - pressed).inSeconds
        // A j while the next photo is on its way: how long the cursor's text waits behind it.
        let next = terminal.press("j")
        _ = terminal.waitFor(mode == "symbols" ? .text : .image, after: next, limit: .seconds(30))
        _ = terminal.waitQuiet(quiet)
        let busy = terminal.press("j")
        usleep(UInt32((link.roundTrip.inSeconds + 0.08) * 1e6))
        let moved = terminal.press("k")
        let text = terminal.waitFor(.text, after: moved + link.roundTrip / 2, limit: .seconds(30))
        result.textDelay = text.map { ($0 - moved).inSeconds } ?? .infinity
        _ = busy
        _ = terminal.waitQuiet(quiet)
        // Ten j at 12 keys a second.
        before = terminal.bytesRead
        var lastKey = ContinuousClock.now
        for _ in 0..<10 {
            lastKey = terminal.press("j")
            usleep(83_000)
        }
        let settled = terminal.waitQuiet(quiet)
        result.tenBytes = Double(terminal.bytesRead - before)
        result.tenQuiet = max(0, (settled - lastKey).inSeconds)
        result.webBytes = try Self.webBytes(cache: scratch.appending(path: "cache/photopick/previews"))
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
