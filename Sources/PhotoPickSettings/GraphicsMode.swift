/// How previews are drawn, as asked for in the config, `--graphics` or `PHOTOPICK_GRAPHICS`.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// Ask the terminal and choose the best it keeps in place.
    case auto
    /// The kitty graphics protocol: RGB pixels sent once per photo and size, placed by id.
    case kitty
    /// DEC sixel, encoded by libchafa.
    case sixel
    /// iTerm2's inline images (OSC 1337) with the JPEG as it came.
    case iterm
    /// Unicode block symbols in colour, drawn by libchafa into cells; works in every terminal.
    case symbols
}
