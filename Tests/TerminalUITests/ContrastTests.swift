import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// Every colour pair the screens draw is readable: text at WCAG's 4.5:1, bars and borders (block and
/// box-drawing glyphs) at 3:1, in the light and the dark theme, each on the terminal backgrounds it is
/// chosen for, at 256 colours and 24-bit. Tags are given no colour here: a tag's own colour is the
/// user's, and a colourless one is drawn in the theme's grey, which is checked.
@Suite struct ContrastTests {
    /// The terminal's default background each theme is checked on: pure and softened.
    static func backgrounds(_ name: Theme.Name) -> [(Int, Int, Int)] {
        name == .light ? [(255, 255, 255), (238, 238, 238)] : [(0, 0, 0), (28, 28, 28)]
    }

    static func rgb(_ color: TerminalColor) -> (Int, Int, Int)? {
        switch color {
        case .terminalDefault: nil
        case .palette(let index): XtermPalette.rgb(index)
        case .rgb(let red, let green, let blue): (Int(red), Int(green), Int(blue))
        }
    }

    static func luminance(_ color: (Int, Int, Int)) -> Double {
        func linear(_ value: Int) -> Double {
            let value = Double(value) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.0) + 0.7152 * linear(color.1) + 0.0722 * linear(color.2)
    }

    static func contrast(_ first: (Int, Int, Int), _ second: (Int, Int, Int)) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Screens that between them draw every role: the list with a selection, a visual range and a
    /// failed tag write; the grid; help, details, a prompt, the quit question; cull mode.
    static func scenes() -> [(String, BrowserState, UIState)] {
        var state = Fixture.state()
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags.map { PhotoPickKit.Tag(id: $0.id, name: $0.name, color: nil) })))
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        var visual = state
        _ = visual.apply(.selection(.visualRangeToggled))
        _ = visual.apply(.browsing(.cursorMoved(.down)))
        _ = visual.apply(.browsing(.cursorMoved(.down)))
        var failed = state
        _ = failed.apply(.tags(.tagOperationFailed("the server said no")))
        func ui(_ change: (inout UIState) -> Void) -> UIState {
            var ui = UIState()
            change(&ui)
            return ui
        }
        return [
            ("list", state, UIState()),
            ("visual range", visual, UIState()),
            ("error", failed, UIState()),
            ("grid", state, ui { $0.mode = .grid }),
            ("help", state, ui { $0.overlay = .help(scroll: 0) }),
            ("details", state, ui { $0.overlay = .details(scroll: 0) }),
            ("quit", state, ui { $0.overlay = .confirmQuit }),
            ("filter", state, ui { $0.filterField = TextField("rating>=3 bad:term") }),
        ]
    }

    @Test(arguments: [Theme.Name.dark, .light], [Theme.Depth.colors256, .direct])
    func everyPairOnScreenIsReadable(name: Theme.Name, depth: Theme.Depth) {
        var failures: Set<String> = []
        var pairs = 0
        for (scene, state, ui) in Self.scenes() {
            var context = Fixture.context(depth)
            context.theme = Theme(name: name, depth: depth)
            let screen = Screen(context: context)
            var state = state
            _ = state.apply(.browsing(.viewResized(rows: screen.layout(width: 120, height: 40, state: state, mode: ui.mode).pageItems)))
            let canvas = screen.frame(state, ui, width: 120, height: 40).canvas
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let cell = canvas[x, y]
                    guard let scalar = cell.text.unicodeScalars.first, cell.text != " ", !cell.text.isEmpty else { continue }
                    var style = cell.style
                    if style.attributes.contains(.reverse) { swap(&style.foreground, &style.background) }
                    // Bars, borders and marks are graphics: WCAG's 3:1 for what is not text.
                    let graphic = (0x2500...0x259F).contains(scalar.value)
                        || [.otherSymbol, .mathSymbol].contains(scalar.properties.generalCategory)
                    let needed = graphic ? 3.0 : 4.5
                    if style.foreground == .terminalDefault && style.background != .terminalDefault {
                        failures.insert("\(scene): the terminal's own text colour on \(style.background), as at \(x),\(y)")
                        continue
                    }
                    for backdrop in Self.backgrounds(name) {
                        let foreground = Self.rgb(style.foreground) ?? (name == .light ? (0, 0, 0) : (229, 229, 229))
                        let background = Self.rgb(style.background) ?? backdrop
                        pairs += 1
                        let ratio = Self.contrast(foreground, background)
                        if ratio < needed {
                            failures.insert(String(format: "%@: %@ %@ on %@ is %.2f:1, under %.1f:1", scene, graphic ? "graphic" : "text",
                                                   "\(style.foreground)", Self.rgb(style.background).map { "\($0)" } ?? "the default \(backdrop)", ratio, needed))
                        }
                    }
                }
            }
        }
        #expect(pairs > 1000)
        #expect(failures.isEmpty, "\(failures.sorted().prefix(40).joined(separator: "\n"))")
    }

    @Test func theBackgroundReplyPicksTheTheme() {
        let dark = TerminalReplies.parse(Array("\u{1B}]11;rgb:1c1c/1c1c/1c1c\u{1B}\\\u{1B}[?62;4c".utf8))
        #expect(dark.background?.description == "#1c1c1c" && dark.background?.isLight == false)
        let light = TerminalReplies.parse(Array("\u{1B}]11;rgb:fd/f6/e3\u{07}\u{1B}[?62c".utf8))
        #expect(light.background?.description == "#fdf6e3" && light.background?.isLight == true)
        // Mid-grey splits where black and white text read equally well.
        #expect(BackgroundColor(red: 0.5, green: 0.5, blue: 0.5).isLight && !BackgroundColor(red: 0.4, green: 0.4, blue: 0.4).isLight)
        #expect(TerminalReplies.parse(Array("\u{1B}]11;cmyk:1/2/3/4\u{1B}\\".utf8)).background == nil)
    }
}
