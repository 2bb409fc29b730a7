import Foundation
import PhotoBrowser
import PhotoPickSettings

/// Turns keys and clicks into browser events and UI changes. It holds no terminal and no session, so
/// every key can be tested by feeding it a state. Keys that mean the same everywhere are handled here;
/// the rest go to the mode in force (`UIState.keyMode`).
public struct Controller: Sendable {
    /// What handling an input asks of the app.
    struct Outcome: Sendable {
        /// Events for the session, in order.
        var events: [BrowserEvent] = []
        /// Whether the app should quit.
        var quit = false
        /// Ctrl-Z: give the terminal back to the shell until `fg`.
        var suspend = false
        /// Ctrl-L: draw the whole screen and every image again, over whatever the terminal shows.
        var repaint = false
        /// Ctrl-E: these photos' names and titles go to the user's editor, with the terminal.
        var bulkEdit: [Int]?
        /// A bulk edit's file, applied or declined: it goes.
        var finishedBulkEdit: URL?
        /// `y` or the `Y` menu: text for the terminal's clipboard.
        var clipboard: String?
    }

    /// The mode, overlays and cursors the views show on top of the browser state.
    public private(set) var ui = UIState()
    /// The keys in force.
    let keymap: Keymap
    /// Lines on the help screen, which depend only on the key map; their rows on screen bound its scroll.
    private let helpLines: [HelpView.HelpLine]

    /// A controller in browsing mode with these keys.
    public init(keymap: Keymap = .standard) {
        self.keymap = keymap
        helpLines = HelpView.helpLines(for: keymap)
    }

    /// Applies one input to the UI state, given the browser state and the layout on screen.
    mutating func handle(_ input: InputEvent, state: BrowserState, layout: ScreenLayout, loupe: LoupeGeometry? = nil) -> Outcome {
        var context = InputContext(ui: ui, state: state, layout: layout, keymap: keymap, helpLines: helpLines, loupe: loupe)
        switch input {
        case .mouse(let mouse):
            if !layout.tooSmall { MouseInput.handle(mouse, &context) }
        case .paste(let text):
            if !layout.tooSmall { PasteInput.handle(text, &context) }
        case .key(.control("z")):
            context.outcome.suspend = true
        case .key(.control("l")):
            context.outcome.repaint = true
        case .key(let key) where layout.tooSmall:
            // Only the request for a bigger window shows, so only quitting means anything, and there is no
            // room to ask: unfinished work resumes next time anyway.
            context.outcome.quit = isQuitKey(key)
        case .key(.control("c")):
            // Ctrl-C always quits, as in any terminal program; it asks first like `q` when work is pending.
            if ui.overlay == .confirmQuit || !state.hasUnfinishedWork {
                context.outcome.quit = true
            } else {
                context.ui.filterField = nil
                context.ui.overlay = .confirmQuit
            }
        case .key(let key):
            ui.keyMode.handle(key, &context)
        }
        ui = context.ui
        return context.outcome
    }

    /// The inputs one decoded input stands for. Esc and a key that come together are Alt+key to the
    /// decoder; unless the config binds that Alt key, they are what a fast typist, a script or a link
    /// that joins packets sends: Esc, then the key.
    func inputs(for input: InputEvent) -> [InputEvent] {
        guard case .key(.alt(let character)) = input, !keymap.binds(.alt(character)) else { return [input] }
        return [.key(.escape), .key(.character(character))]
    }

    /// Shows a question the app asks after work of its own, such as the editor's changes to confirm.
    mutating func ask(_ prompt: UIState.Prompt) {
        ui.overlay = .prompt(prompt)
    }

    /// Ctrl-C, or a key bound to quit: what works while the library is still opening.
    func isQuitKey(_ key: Key) -> Bool {
        key == .control("c") || keymap.action(for: key, in: .browse) == .quit
    }
}
