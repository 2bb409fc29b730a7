import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickConfig
import PhotoPickKit
import PhotoPickServer
import TerminalUI
import PhotoPickSettings
import PhotoPickFormats

/// `photopick doctor`: one screen of facts for a bug report about how photopick draws here: the
/// terminal, what it answered, the mode chosen and why, and where photopick keeps things. Never the key.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Print what photopick knows about this terminal and setup, for a bug report."
    )

    @Option(help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/photopick/config.toml).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The mode to report on: auto, kitty, sixel, iterm or symbols (default: as the browser would).", valueName: "mode"))
    var graphics: String?

    func validate() throws {
        if let graphics, GraphicsMode(rawValue: graphics) == nil {
            throw ValidationError("--graphics \(graphics) is not a mode; use one of \(GraphicsMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let paths = Paths(environment: environment)
        let configURL = config.map { URL(fileURLWithPath: $0) } ?? paths.configFile
        var lines: [(String, String)] = [("photopick", PhotoPickCommand.version)]
        func env(_ name: String) -> String { environment[name].map { TerminalText.sanitized($0) } ?? "(unset)" }
        for name in ["TERM", "TERM_PROGRAM", "COLORTERM", "KITTY_WINDOW_ID", "WEZTERM_EXECUTABLE", "KONSOLE_VERSION", "TMUX"] {
            if environment[name] != nil || ["TERM", "TERM_PROGRAM", "COLORTERM"].contains(name) { lines.append((name, env(name))) }
        }
        lines.append(("locale", setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"))
        var loaded: Config?
        do {
            loaded = try Config.load(from: configURL, mustExist: config != nil)
            lines.append(("config", FileManager.default.fileExists(atPath: configURL.path) ? configURL.path : "\(configURL.path) (none; defaults)"))
        } catch {
            lines.append(("config", "\(configURL.path): \(error)"))
        }
        let requested = Launcher.graphicsMode(option: graphics, environment: environment, config: loaded ?? Config())
        let mode = (try? requested.get()) ?? .auto
        if case .failure(let line) = requested { lines.append(("graphics setting", line.description)) }
        if isatty(STDOUT_FILENO) == 1 || isatty(STDIN_FILENO) == 1 {
            let findings = TerminalProbe(clock: .continuous).run(requested: mode, environment: environment)
            if let passthrough = findings.tmuxPassthrough { lines.append(("tmux allow-passthrough", passthrough)) }
            if let tmux = findings.tmux {
                let outside = [tmux.outerType, tmux.outerTerm.map { "TERM=\($0)" }].compactMap { $0 }.joined(separator: ", ")
                let version = tmux.version ?? "version unknown"
                lines.append(("tmux", TerminalText.sanitized(version + (outside.isEmpty ? "" : "; outside it \(outside)"))))
                let features = tmux.features.map { $0.isEmpty ? "nothing more" : $0.sorted().joined(separator: ",") } ?? "unknown (tmux before 3.2)"
                lines.append(("tmux passes", TerminalText.sanitized(features)))
                lines.append(("tmux sixel", tmux.drawsSixel ? "drawn by tmux itself (its DA1 lists 4)" : "none of its own"))
            }
            if let window = findings.window {
                lines.append(("window", "\(window.columns)×\(window.rows) cells, \(window.width)×\(window.height) pixels (TIOCGWINSZ)"))
            }
            if let replies = findings.replies {
                lines.append(("replies", replies.transcript.isEmpty ? "none within \(TerminalProbe(clock: .continuous).deadline)" : replies.transcript.joined(separator: " ")))
                lines.append(("XTVERSION", replies.version ?? "no answer"))
                lines.append(("kitty graphics", replies.kittyGraphics ? "yes" : replies.kittyError.map { "refused: \($0)" } ?? "no answer"))
                lines.append(("DA1", replies.deviceAttributes.map { $0.map(String.init).joined(separator: ";") + (replies.sixel ? " (sixel)" : "") } ?? "no answer"))
                lines.append(("sixel registers", replies.sixelRegisters.map(String.init) ?? "no answer"))
                lines.append(("sixel limit", replies.sixelLimit?.description ?? "no answer"))
                lines.append(("cell (CSI 16t)", replies.cell?.description ?? "no answer"))
                let chosen = ThemeName.chosen(config: loaded?.theme, backgroundIsLight: replies.background?.isLight).rawValue
                let theme = chosen + (loaded?.theme != nil ? " (the config's)" : " (chosen by the background; theme = … in the config sets one)")
                lines.append(("background (OSC 11)", (replies.background.map { "\($0), \($0.isLight ? "light" : "dark")" } ?? "no answer") + "; theme \(theme)"))
            } else {
                lines.append(("replies", "not asked"))
            }
            let chosen = findings.graphics
            lines.append(("mode", "\(chosen.mode.rawValue): \(chosen.reason)"))
            lines.append(("cell", chosen.cell.map { "\($0.description) pixels" } ?? "unknown"))
            lines.append(("colours", "\(chosen.depth)" + (chosen.cursesTerm.map { " (ncurses starts as \($0))" } ?? "")))
            if let advice = chosen.advice { lines.append(("advice", advice)) }
            lines.append(("probe took", Figures.elapsed(milliseconds: Int(findings.elapsed.milliseconds))))
            if chosen.placesPixels {
                lines.append(("link", TerminalProbe(clock: .continuous).measureLink()?.description ?? "the terminal did not answer DA1 within 10 s"))
            }
        } else {
            lines.append(("terminal", "stdin and stdout are not a terminal; run doctor in the terminal you browse in"))
        }
        lines.append(("key", keySource(loaded, environment: environment)))
        lines.append(("state", paths.stateDirectory.path))
        lines.append(("preview cache", "\(paths.previewCache.path) (\(Self.size(of: paths.previewCache)))"))
        lines.append(("downloads", (loaded?.downloadDirectory ?? paths.downloads).path))
        lines.append(("demo library", "\(paths.demoLibrary.path) (\(Self.size(of: paths.demoLibrary)))"))
        let width = lines.map(\.0.count).max() ?? 0
        for (name, value) in lines {
            print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
        let problems = Self.problems(environment: environment, configURL: configURL, explicitConfig: config != nil, config: loaded, paths: paths)
        print("")
        if problems.isEmpty {
            print("missing: nothing found missing")
        } else {
            for problem in problems { print("missing: \(problem)") }
        }
    }

    /// What would stop photopick or spoil its screen here, each with its fix, in one line.
    static func problems(environment: [String: String], configURL: URL, explicitConfig: Bool, config: Config?, paths: Paths) -> [String] {
        var problems: [String] = []
        let term = environment["TERM"] ?? ""
        if term.isEmpty {
            problems.append("TERM is not set; run photopick in a terminal, or set TERM=xterm-256color")
        } else if TerminalProbe.installedEntries([term]).isEmpty {
            problems.append("no terminfo entry for TERM=\(TerminalText.sanitized(term)); install ncurses-term (apt-get install ncurses-term), or set TERM=xterm-256color")
        }
        let truecolor = ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? "")
        if truecolor, term.hasPrefix("xterm"), TerminalProbe.installedEntries(["xterm-direct256", "xterm-direct"]).isEmpty {
            problems.append("xterm-direct256 is missing, so 24-bit colour falls back to 256 colours; install ncurses-term (apt-get install ncurses-term)")
        }
        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
            let named = environment["LC_ALL"].map { "LC_ALL=\($0)" } ?? environment["LANG"].map { "LANG=\($0)" } ?? "no LANG"
            problems.append("the locale (\(TerminalText.sanitized(named)), \(codeset.isEmpty ? "unknown" : codeset)) is not UTF-8, so names and box lines break; set LANG=C.UTF-8 (or install and choose a UTF-8 locale)")
        }
        do {
            _ = try Config.load(from: configURL, mustExist: explicitConfig)
        } catch {
            problems.append("the config has an error: \(TerminalText.sanitized(String(describing: error))); fix that line, or move the file aside")
        }
        let downloads = config?.downloadDirectory ?? paths.downloads
        if let reason = Self.unwritable(downloads) {
            problems.append("the download folder \(downloads.path) \(reason); set download_dir in the config to a folder you can write, or pass --download-dir")
        }
        problems += [OriginalDecoder.missingHEICDecoder].compactMap { $0 } + DemoImage.missingEncoders
        return problems
    }

    /// Why photopick could not write into `folder` (made when missing), or nil when it could.
    static func unwritable(_ folder: URL) -> String? {
        var existing = folder
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            existing.deleteLastPathComponent()
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: existing.path, isDirectory: &isFolder), isFolder.boolValue else {
            return "cannot be made: \(existing.path) is a file"
        }
        guard access(existing.path, W_OK | X_OK) == 0 else {
            return existing == folder ? "cannot be written (\(String(cString: strerror(errno))))" : "cannot be made: \(existing.path) cannot be written"
        }
        return nil
    }

    /// Where the key would come from; the key itself is never printed.
    private func keySource(_ config: Config?, environment: [String: String]) -> String {
        if let key = environment["PHOTOPICK_API_KEY"], !key.isEmpty { return "PHOTOPICK_API_KEY (set)" }
        if config?.apiKey != nil { return "api_key in the config" }
        if let file = config?.apiKeyFile { return "api_key_file \(file.path)" }
        return "none: the demo library"
    }

    /// The bytes under a folder, in words.
    static func size(of folder: URL) -> String {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey]) else { return "empty" }
        var total = 0
        for case let url as URL in files {
            total += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total == 0 ? "empty" : Figures.bytes(Int64(total))
    }
}
