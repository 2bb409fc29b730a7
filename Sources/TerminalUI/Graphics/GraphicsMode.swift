import PhotoBrowser
import PhotoImaging
import PhotoPreviews
import PhotoPickSettings

/// What the terminal was found to show, and so how previews are drawn: the facts the probe gathered,
/// the mode chosen from them and why.
public struct Graphics: Sendable, Equatable {
    /// The protocol previews are drawn with; never `auto`.
    public var mode: GraphicsMode
    /// Colours the cells can show, from COLORTERM, the terminal's name and terminfo together.
    public var depth: Theme.Depth
    /// One cell in pixels, when the terminal told; pixel modes need it.
    public var cell: PixelSize?
    /// The largest sixel image the terminal takes, from XTSMGRAPHICS.
    public var sixelLimit: PixelSize?
    /// The terminal type ncurses is started with when the user's TERM says less than the terminal shows
    /// (xterm starts as `TERM=xterm`, 8 colours, and shows 24-bit colour); nil keeps TERM.
    public var cursesTerm: String?
    /// Capabilities ncurses must not use on this terminal, beyond the ones it scrolls with
    /// (`ScrollFreeTerminfo.cancelledForMlterm` under mlterm).
    public var cursesCancelled: [String] = []
    /// Inside tmux: image commands go through its passthrough.
    public var inTmux: Bool
    /// kitty images shown through Unicode placeholder cells, which tmux moves and clears like text.
    public var kittyPlaceholders = false
    /// kitty on this machine: pixels go through shared memory (`t=s`), raw, not through the pty.
    public var kittySharedMemory = false
    /// The cell's size was assumed, not told: images are not cut to cell rows.
    public var cellAssumed = false
    /// Why this mode, in a few words, for `photopick doctor` and the log.
    public var reason: String
    /// What the user could change for more (a line for `~/.tmux.conf`, a package), said once on the
    /// status line and in `photopick doctor`; nil when nothing.
    public var advice: String?

    /// Symbols at `depth`, for tests, benchmarks and terminals that are not asked.
    public static func symbols(_ depth: Theme.Depth, reason: String = "chosen") -> Graphics {
        Graphics(mode: .symbols, depth: depth, cell: nil, sixelLimit: nil, cursesTerm: nil, inTmux: false, reason: reason)
    }

    /// Whether previews are pixels placed over cells rather than symbols in them.
    public var placesPixels: Bool { mode != .symbols && mode != .auto }

    /// Makes each decoded preview ready for this mode, for the preview loader to run off the main actor.
    public var renderer: PreviewLoader.Render { PreviewRenderer(graphics: self).render }

    /// The cell size previews are laid out with: the terminal's, else the common 1:2 of most fonts.
    var layoutCell: PixelSize { cell ?? PixelSize(width: 8, height: 16) }
}
