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

    /// tmux around photopick, when it is.
    public struct Tmux: Sendable, Equatable {
        /// `allow-passthrough` is on, so wrapped queries and images reach the terminal outside.
        public var passthrough: Bool

        /// tmux with passthrough on or off.
        public init(passthrough: Bool) { self.passthrough = passthrough }
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
        if let tmux {
            guard tmux.passthrough else {
                return (.symbols, "inside tmux with allow-passthrough off; symbols (set -g allow-passthrough on to let the probe through)")
            }
            // tmux neither clips, scrolls nor removes an image passed through it, and 3.3a has no sixel of
            // its own: only kitty's Unicode placeholders (cells tmux moves like text) stay in place.
            if let replies, replies.kittyGraphics, Self.hasPlaceholders(replies.version) {
                return (.kitty, "inside tmux, the terminal outside (\(replies.version ?? "")) shows kitty Unicode placeholders, which tmux moves like text")
            }
            return (.symbols, "inside tmux, which cannot clip, scroll or remove passed-through images, and the terminal outside has no kitty Unicode placeholders; symbols")
        }
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
        let truecolor = colorterm == "truecolor" || colorterm == "24bit" || terminfo.rgb || terminfo.colors >= 1 << 24
            || Self.truecolorTerminals.contains { version.hasPrefix($0) }
            || ["KITTY_WINDOW_ID", "WEZTERM_EXECUTABLE", "KONSOLE_VERSION", "MLTERM", "VTE_VERSION"].contains { environment[$0] != nil }
            || ["iterm.app", "wezterm", "ghostty"].contains(program)
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
