import Foundation
import PhotoBrowser
import PhotoPreviews
import PhotoPickSettings

/// What views need besides the state: the look, the keys, and where the photos come from.
public struct ViewContext: Sendable {
    var theme: Theme
    var keymap: Keymap
    /// Whether this is the demo library, which the header says, with how to browse your own.
    var demo: Bool
    /// The account's name, once known; the header shows it for a real library.
    var libraryName: String?
    var presenter = MetadataPresenter()
    /// Written as `~` in paths.
    var homeDirectory: String
    /// Decoded previews; without it, views show the placeholder where a preview would go.
    public var previews: PreviewStore?
    /// The loupe's frames and originals' progress; without it, the loupe says it cannot show.
    public var loupes: LoupeStore?
    /// The share of pixels clipped at either end past which a histogram says so in the warning colour
    /// (`clipping_warning`, in percent, in the config).
    var clippingWarning = 0.01
    /// How previews are drawn: symbols in cells, or pixels placed over them.
    public var graphics: Graphics
    /// The frame's moment, set by the app before each frame: views read ages and times left from it,
    /// never from the clock, so drawing the same state at the same moment gives the same cells.
    public var now: Date

    /// A context with a theme and keys at the moment `now`; the home directory is written as `~` in paths.
    public init(
        theme: Theme, keymap: Keymap = .standard, demo: Bool, now: Date,
        homeDirectory: String = FileManager.default.homeDirectoryForCurrentUser.path, graphics: Graphics? = nil, clippingWarning: Double = 0.01
    ) {
        self.now = now
        self.clippingWarning = clippingWarning
        self.theme = theme
        self.graphics = graphics ?? .symbols(theme.depth)
        self.keymap = keymap
        self.demo = demo
        self.homeDirectory = homeDirectory
    }

    /// A path with the home directory written as `~`.
    func abbreviate(_ path: String) -> String {
        guard !homeDirectory.isEmpty, homeDirectory != "/", path.hasPrefix(homeDirectory) else { return path }
        let rest = path.dropFirst(homeDirectory.count)
        return rest.isEmpty || rest.hasPrefix("/") ? "~" + rest : path
    }
}
