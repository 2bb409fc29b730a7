import PhotoBrowser
import PhotoImaging
import PhotoPickSettings

/// Chooses how previews are drawn from what is known about the terminal: the mode asked for, the
/// environment, what the terminal answered, and terminfo. Pure, so every terminal's case is a test.
public struct GraphicsChoice: Sendable {
    /// What terminfo says of a terminal type.
    public struct Terminfo: Sendable {
        /// Colours it declares; 0 when the type is unknown.
        public var colors: Int
        /// Whether it has the RGB or Tc flag.
        public var rgb: Bool
        /// Which of the entries photopick may start ncurses with are installed: `xterm-direct256`,
        /// `xterm-direct`, `xterm-256color`, and TERM's own `-direct` and `-256color` variants.
        public var known: Set<String>

        /// Terminfo's facts.
        public init(colors: Int, rgb: Bool, known: Set<String>) {
            self.colors = colors
            self.rgb = rgb
            self.known = known
        }
    }

    /// tmux around photopick, when it is, as it describes itself and the terminal outside it.
    public struct Tmux: Sendable, Equatable {
        /// `allow-passthrough` is on, so wrapped queries and images reach the terminal outside.
        public var passthrough: Bool
        /// tmux's version (`#{version}`, such as `3.5a`); nil when tmux could not be asked.
        public var version: String?
        /// What tmux knows the terminal outside shows (`#{client_termfeatures}`: `RGB`, `sixel`, …); nil
        /// when tmux could not be asked.
        public var features: Set<String>?
        /// TERM outside tmux (`#{client_termname}`), for the line to add to `~/.tmux.conf`.
        public var outerTerm: String?
        /// The terminal outside as it named itself to tmux (`#{client_termtype}`, such as `XTerm(398)`).
        public var outerType: String?
        /// tmux answered DA1 itself with 4: built with sixel (3.4 and later), it draws sixel images in its
        /// panes, and clips, moves and removes them with the text.
        public var drawsSixel: Bool

        /// tmux with passthrough on or off, and what else it said.
        public init(passthrough: Bool, version: String? = nil, features: Set<String>? = nil, outerTerm: String? = nil,
                    outerType: String? = nil, drawsSixel: Bool = false) {
            self.passthrough = passthrough
            self.version = version
            self.features = features
            self.outerTerm = outerTerm
            self.outerType = outerType
            self.drawsSixel = drawsSixel
        }

        /// Whether an `allow-passthrough` value lets passthrough through: `on` or `all` (3.4 and later),
        /// `1` as `display -p` prints tmux 3.3's flag.
        static func allowsPassthrough(_ value: String?) -> Bool { ["on", "all", "1"].contains(value ?? "") }

        /// Whether tmux passes 24-bit colour on; nil when it was not asked.
        var passesRGB: Bool? { features.map { $0.contains("RGB") || $0.contains("Tc") } }

        /// The `~/.tmux.conf` line that tells tmux the terminal outside has `feature`, for TERM there.
        func configLine(adding feature: String) -> String {
            let term = outerTerm.flatMap { $0.isEmpty ? nil : $0 } ?? "xterm*"
            let pattern = term.hasPrefix("xterm") ? "xterm*" : term
            return "set -as terminal-features ',\(TerminalText.sanitized(pattern)):\(feature)'"
        }

        /// "tmux 3.5a", or "tmux" when the version is not known.
        var name: String { version.map { "tmux \(TerminalText.sanitized($0))" } ?? "tmux" }
    }

    /// The mode asked for.
    public var requested: GraphicsMode
    /// The environment photopick runs in.
    public var environment: [String: String]
    /// What the terminal answered; nil when it was not asked.
    public var replies: TerminalReplies?
    /// One cell in pixels from the kernel's window size, when the terminal fills it in.
    public var kernelCell: PixelSize?
    /// tmux, when TMUX is set.
    public var tmux: Tmux?
    /// TERM's terminfo.
    public var terminfo: Terminfo

    /// The facts to choose from.
    public init(requested: GraphicsMode, environment: [String: String], replies: TerminalReplies?, kernelCell: PixelSize?, tmux: Tmux?, terminfo: Terminfo) {
        self.requested = requested
        self.environment = environment
        self.replies = replies
        self.kernelCell = kernelCell
        self.tmux = tmux
        self.terminfo = terminfo
    }

    /// Terminals whose XTVERSION names them and which show 24-bit colour.
    static let truecolorTerminals = ["xterm", "kitty", "wezterm", "foot", "mlterm", "iterm2", "konsole", "contour", "ghostty", "alacritty", "vte", "tmux"]

    /// The graphics to start with.
    public var graphics: Graphics {
        let term = environment["TERM"] ?? ""
        let (depth, cursesTerm) = colorDepth(term: term)
        let cell = kernelCell ?? replies?.cell
        var graphics = Graphics(mode: .symbols, depth: depth, cell: cell, sixelLimit: replies?.sixelLimit, cursesTerm: cursesTerm,
                                inTmux: tmux != nil, reason: "")
        let (mode, reason) = mode(cell: cell)
        graphics.mode = mode
        graphics.reason = reason
        graphics.advice = [colourAdvice(depth: depth), sixelAdvice(mode: mode)].compactMap { $0 }.first
        if environment["MLTERM"] != nil { graphics.cursesCancelled = ScrollFreeTerminfo.cancelledForMlterm }
        graphics.kittyPlaceholders = mode == .kitty && tmux != nil
        graphics.kittySharedMemory = mode == .kitty && tmux == nil && replies?.kittySharedMemory == true
        if graphics.kittySharedMemory { graphics.reason += "; on this machine, so pixels go through shared memory" }
        if mode != .symbols, graphics.cell == nil {
            graphics.cell = PixelSize(width: 8, height: 16)
            graphics.cellAssumed = true
            graphics.reason += "; the terminal did not tell its cell size, so 8×16 pixels is assumed"
        }
        return graphics
    }

    private func mode(cell: PixelSize?) -> (GraphicsMode, String) {
        switch requested {
        case .kitty, .sixel, .iterm: return (requested, "asked for \(requested.rawValue)")
        case .symbols: return (.symbols, "asked for symbols")
        case .auto: break
        }
        let term = environment["TERM"] ?? ""
        if term == "dumb" || term == "linux" { return (.symbols, "TERM=\(term) shows no images") }
        if let tmux { return mode(inside: tmux, cell: cell) }
        guard let replies, replies.isComplete else { return (.symbols, "the terminal did not answer the probe; symbols") }
        guard cell != nil else { return (.symbols, "the terminal did not tell its cell size in pixels; symbols") }
        let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
        let version = (replies.version ?? "").lowercased()
        // mlterm draws both; its sixel decoder shears images of some widths (seen in 3.9.0), OSC 1337 not.
        if environment["MLTERM"] != nil { return (.iterm, "mlterm draws iTerm2 inline images") }
        if program == "iterm.app" || program == "wezterm" || version.hasPrefix("iterm2") || version.hasPrefix("wezterm") {
            return (.iterm, "\(program.isEmpty ? replies.version ?? "the terminal" : program) draws iTerm2 inline images")
        }
        if replies.kittyGraphics { return (.kitty, "the terminal answered the kitty graphics query OK") }
        if replies.sixel {
            if let registers = replies.sixelRegisters, registers < 256 {
                return (.symbols, "sixel with only \(registers) colour registers; symbols")
            }
            return (.sixel, "DA1 lists sixel (4)")
        }
        return (.symbols, "no kitty, sixel or iTerm2 images in the replies; symbols")
    }

    /// Inside tmux only images tmux keeps in place: kitty's Unicode placeholders (cells tmux moves like
    /// text, the image passed through to the terminal outside), or sixel that tmux 3.4 and later draws
    /// itself, as a terminal would, clipping it to the pane, scrolling it and removing it with the text.
    /// tmux neither clips, scrolls nor removes an image passed through it, so nothing else is passed.
    private func mode(inside tmux: Tmux, cell: PixelSize?) -> (GraphicsMode, String) {
        let outside = replies?.version.map { " (\(TerminalText.sanitized($0)))" } ?? ""
        if tmux.passthrough, let replies, replies.kittyGraphics, Self.hasPlaceholders(replies.version) {
            return (.kitty, "inside tmux, the terminal outside\(outside) shows kitty Unicode placeholders, which tmux moves like text")
        }
        if tmux.drawsSixel, tmux.features?.contains("sixel") == true {
            guard cell != nil else { return (.symbols, "\(tmux.name) draws sixel, but its pane has no size in pixels; symbols") }
            if let registers = replies?.sixelRegisters, registers < 256 {
                return (.symbols, "\(tmux.name) draws sixel, but the terminal outside has only \(registers) colour registers; symbols")
            }
            return (.sixel, "\(tmux.name) draws sixel itself, and the terminal outside shows it: tmux clips, moves and removes the images")
        }
        guard tmux.passthrough else {
            let sixel = tmux.drawsSixel ? "; \(tmux.name) draws sixel, but does not know that the terminal outside does" : ""
            return (.symbols, "inside tmux with allow-passthrough off\(sixel); symbols (set -g allow-passthrough on to let the probe through)")
        }
        if tmux.drawsSixel, replies?.sixel == true {
            return (.symbols, "\(tmux.name) draws sixel, but does not know that the terminal outside\(outside) does; symbols")
        }
        let sixel = tmux.drawsSixel ? "" : ", and draws no sixel of its own (3.4 and later can, when built with it)"
        return (.symbols, "inside \(tmux.name), which cannot clip, scroll or remove passed-through images\(sixel); the terminal outside has no kitty Unicode placeholders; symbols")
    }

    /// One line for the status line and `photopick doctor`, when tmux could draw the images the terminal
    /// outside shows and does not know it can.
    private func sixelAdvice(mode: GraphicsMode) -> String? {
        guard requested == .auto, mode == .symbols, let tmux, tmux.drawsSixel, tmux.features?.contains("sixel") == false,
              replies?.sixel == true else { return nil }
        return "For images in tmux, add \(tmux.configLine(adding: "sixel")) to ~/.tmux.conf"
    }

    /// When tmux passes 256 colours and the terminal outside shows 24-bit: the line that tells tmux. When
    /// tmux passes 24-bit colour and no terminfo entry lets ncurses send it: the package that has one.
    private func colourAdvice(depth: Theme.Depth) -> String? {
        guard let tmux, let passesRGB = tmux.passesRGB else { return nil }
        if passesRGB {
            guard depth != .direct else { return nil }
            return "For 24-bit colour in tmux, install the terminfo entry tmux-direct (Debian: ncurses-term)"
        }
        guard outsideShowsTruecolor(tmux) else { return nil }
        // Short enough that the line to add fits a status line of 100 columns.
        return "For 24-bit colour in tmux, add \(tmux.configLine(adding: "RGB")) to ~/.tmux.conf"
    }

    /// Whether the terminal outside tmux shows 24-bit colour, from what it told tmux or the probe, or the
    /// environment it started tmux with.
    private func outsideShowsTruecolor(_ tmux: Tmux) -> Bool {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        let names = [tmux.outerType, replies?.version].compactMap { $0?.lowercased() }
        let term = (tmux.outerTerm ?? "").lowercased()
        return colorterm == "truecolor" || colorterm == "24bit" || term.contains("direct") || term == "xterm-kitty"
            || names.contains { name in Self.truecolorTerminals.contains { name.hasPrefix($0) && $0 != "tmux" } }
    }

    /// Whether XTVERSION names a terminal with kitty's Unicode placeholders: kitty 0.28 or later, ghostty.
    static func hasPlaceholders(_ version: String?) -> Bool {
        guard let version = version?.lowercased() else { return false }
        if version.hasPrefix("ghostty") { return true }
        guard version.hasPrefix("kitty("), let close = version.firstIndex(of: ")") else { return false }
        let numbers = version[version.index(version.startIndex, offsetBy: 6)..<close].split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return false }
        return numbers[0] > 0 || numbers[1] >= 28
    }

    /// The colours the terminal shows, and the terminfo entry to start ncurses with when TERM says less.
    private func colorDepth(term: String) -> (Theme.Depth, String?) {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        let version = (replies?.version ?? "").lowercased()
        let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
        // Inside tmux, what tmux passes on decides, when it says.
        let truecolor = tmux?.passesRGB ?? (colorterm == "truecolor" || colorterm == "24bit" || terminfo.rgb || terminfo.colors >= 1 << 24
            || Self.truecolorTerminals.contains { version.hasPrefix($0) }
            || ["KITTY_WINDOW_ID", "WEZTERM_EXECUTABLE", "KONSOLE_VERSION", "MLTERM", "VTE_VERSION"].contains { environment[$0] != nil }
            || ["iterm.app", "wezterm", "ghostty"].contains(program))
        let xtermFamily = term.hasPrefix("xterm")
        if truecolor {
            if terminfo.colors >= 1 << 24 { return (.direct, nil) }
            let candidates = xtermFamily ? ["xterm-direct256", "xterm-direct"] : tmux != nil ? ["tmux-direct"] : ["\(term)-direct"]
            if let direct = candidates.first(where: terminfo.known.contains) { return (.direct, direct) }
        }
        if terminfo.colors >= 256 { return (.colors256, nil) }
        // xterm starts as TERM=xterm and mlterm as TERM=mlterm (8 colours) and both show more; so does
        // any terminal that says its name.
        if truecolor || replies?.version != nil {
            let wider = xtermFamily ? "xterm-256color" : "\(term)-256color"
            if terminfo.known.contains(wider) { return (.colors256, wider) }
        }
        return (terminfo.colors >= 8 ? .colors8 : .monochrome, nil)
    }
}
