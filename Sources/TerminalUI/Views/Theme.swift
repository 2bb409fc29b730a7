import PhotoBrowser
import PhotoPickSettings
import PhotoPickKit

/// The colours of every part of the screen, for what the terminal can show: 24-bit or 256 colours, 8, or
/// none.
/// Monochrome still shows the current row (reverse) and the selection (bold marks).
///
/// Every pair is readable (`ContrastTests`): text at WCAG's 4.5:1 and bars, borders and marks at 3:1,
/// the dark theme on black and near-black, the light one on white and near-white, which is what the
/// terminal's background (OSC 11) chooses between when the config names no theme. A style that sets a
/// background sets its text colour too: the terminal's own may be dark on a dark box.
public struct Theme: Sendable, Equatable {
    /// What the terminal can show.
    public enum Depth: Sendable, Equatable, CustomStringConvertible {
        case direct, colors256, colors8, monochrome

        /// In words, for `photopick doctor`.
        public var description: String {
            switch self {
            case .direct: "24-bit"
            case .colors256: "256"
            case .colors8: "8"
            case .monochrome: "monochrome"
            }
        }
    }

    /// The look chosen in the config file.
    /// The themes by name, as the config names them.
    public typealias Name = ThemeName

    let depth: Depth
    let name: Name

    /// The named theme at the colour depth the terminal shows.
    public init(name: Name = .dark, depth: Depth) {
        self.name = name
        self.depth = name == .mono ? .monochrome : depth
    }

    private func color(_ index256: UInt8, _ index8: UInt8) -> TerminalColor {
        switch depth {
        case .colors256, .direct: .palette(index256)
        case .colors8: .palette(index8)
        case .monochrome: .terminalDefault
        }
    }

    private var isLight: Bool { name == .light }

    // MARK: Roles

    var header: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 255 : 231, 7), background: color(isLight ? 25 : 24, 4), attributes: [.bold])
    }
    var headerDetail: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 254 : 253, 7), background: color(isLight ? 25 : 24, 4))
    }
    var text: Style { .plain }
    var dim: Style {
        depth == .monochrome ? Style(attributes: [.dim]) : Style(foreground: color(isLight ? 242 : 247, 7))
    }
    var currentRow: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 16 : 231, 7), background: color(isLight ? 153 : 238, 4), attributes: [.bold])
    }
    var selectedMark: Style {
        depth == .monochrome ? Style(attributes: [.bold]) : Style(foreground: color(isLight ? 22 : 114, 2), attributes: [.bold])
    }
    var selectedText: Style {
        depth == .monochrome ? Style(attributes: [.bold]) : Style(foreground: color(isLight ? 22 : 150, 2))
    }
    var visualRow: Style {
        depth == .monochrome ? Style(attributes: [.underline]) : Style(foreground: color(isLight ? 16 : 255, 7), background: color(isLight ? 230 : 23, 3))
    }
    var label: Style {
        depth == .monochrome ? Style(attributes: [.bold]) : Style(foreground: color(isLight ? 25 : 110, 6))
    }
    var title: Style {
        depth == .monochrome ? Style(attributes: [.bold]) : Style(foreground: color(isLight ? 25 : 117, 6), attributes: [.bold])
    }
    var border: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 244 : 243, 7))
    }
    /// The grey box where a preview cannot be shown.
    var noPreview: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 240 : 250, 0), background: color(isLight ? 252 : 239, 7))
    }
    var info: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 24 : 153, 6))
    }
    var warning: Style {
        depth == .monochrome ? Style(attributes: [.bold]) : Style(foreground: color(isLight ? 94 : 221, 3), attributes: [.bold])
    }
    var error: Style {
        depth == .monochrome ? Style(attributes: [.bold, .reverse]) : Style(foreground: color(231, 7), background: color(124, 1), attributes: [.bold])
    }
    /// A query term that could not be read, in the filter prompt.
    var badTerm: Style {
        depth == .monochrome ? Style(attributes: [.bold, .underline]) : Style(foreground: color(isLight ? 160 : 203, 1), attributes: [.bold, .underline])
    }
    var hint: Style {
        depth == .monochrome ? Style(attributes: [.dim]) : Style(foreground: color(isLight ? 241 : 246, 7))
    }
    var barDone: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 28 : 78, 2))
    }
    var barTodo: Style {
        depth == .monochrome ? Style(attributes: [.dim]) : Style(foreground: color(isLight ? 244 : 242, 7))
    }
    var overlay: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 235 : 252, 7), background: color(isLight ? 255 : 235, 0))
    }
    /// A chart's bars, and a histogram's luminance.
    var chartBar: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 242 : 250, 7))
    }
    /// The bar chosen in a chart.
    var chartChosen: Style {
        depth == .monochrome ? Style(attributes: [.reverse]) : Style(foreground: color(isLight ? 25 : 117, 6), attributes: [.bold])
    }
    /// A histogram's channels.
    var chartRed: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 160 : 203, 1))
    }
    var chartGreen: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 28 : 114, 2))
    }
    var chartBlue: Style {
        depth == .monochrome ? .plain : Style(foreground: color(isLight ? 25 : 75, 4))
    }
    var input: Style {
        depth == .monochrome ? Style(attributes: [.underline]) : Style(foreground: color(isLight ? 16 : 231, 7), attributes: [.bold])
    }

    /// A tag's colour as the nearest colour the terminal has; tags without one get a neutral grey.
    func tagColor(_ tagColor: TagColor?) -> TerminalColor {
        guard let tagColor else { return color(isLight ? 242 : 250, 7) }
        switch depth {
        case .direct: return .rgb(tagColor.red, tagColor.green, tagColor.blue)
        case .colors256: return .palette(Self.nearest256(tagColor))
        case .colors8: return .palette(Self.nearest8(tagColor))
        case .monochrome: return .terminalDefault
        }
    }

    /// The nearest colour in the xterm-256 cube or grey ramp; the 16 system colours are skipped, since
    /// every terminal shows them differently.
    static func nearest256(_ color: TagColor) -> UInt8 {
        let levels = XtermPalette.cubeLevels
        func nearestLevel(_ value: UInt8) -> Int {
            (0..<6).min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) } ?? 0
        }
        let r = nearestLevel(color.red), g = nearestLevel(color.green), b = nearestLevel(color.blue)
        let cube = (16 + 36 * r + 6 * g + b, distance(color, levels[r], levels[g], levels[b]))
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let step = min(23, max(0, (average - 3) / 10))
        let grey = 8 + 10 * step
        let ramp = (232 + step, distance(color, grey, grey, grey))
        return UInt8(ramp.1 < cube.1 ? ramp.0 : cube.0)
    }

    /// The nearest of the eight ANSI colours.
    private static let ansi = Array(XtermPalette.system.prefix(8))

    static func nearest8(_ color: TagColor) -> UInt8 {
        let best = ansi.indices.min { distance(color, ansi[$0].0, ansi[$0].1, ansi[$0].2) < distance(color, ansi[$1].0, ansi[$1].1, ansi[$1].2) }
        return UInt8(best ?? 7)
    }

    private static func distance(_ color: TagColor, _ red: Int, _ green: Int, _ blue: Int) -> Int {
        let dr = Int(color.red) - red, dg = Int(color.green) - green, db = Int(color.blue) - blue
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
