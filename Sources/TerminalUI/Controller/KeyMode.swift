import PhotoBrowser
import PhotoImaging
import PhotoPreviews
import PhotoPickSettings

/// What a mode reads and changes while it handles one input: the UI state it may change, the browser
/// state and layout it reads, and the outcome it builds.
struct InputContext {
    var ui: UIState
    let state: BrowserState
    /// The layout of the frame on screen, which is what a click points at.
    let layout: ScreenLayout
    let keymap: Keymap
    /// The help's lines; laid out on this screen, their rows bound its scroll.
    let helpLines: [HelpView.HelpLine]
    /// The loupe's view and picture for the photo it would show; nil where it cannot open.
    var loupe: LoupeGeometry? = nil
    var outcome = Controller.Outcome()

    /// Asks the session for an event.
    mutating func send(_ event: BrowserEvent) { outcome.events.append(event) }

    /// The browsing action a key is bound to.
    func action(_ key: Key) -> Action? { keymap.action(for: key, in: .browse) }
}

/// What the loupe's keys need of the screen, for the photo it shows (compare's active one): the screen's
/// pixels for the view, the picture's upright size, and where it is sharpest, found only when asked.
struct LoupeGeometry {
    var viewport: PixelSize
    var imageSize: PixelSize
    var focus: () -> UnitPoint
}

/// One mode of the controller: browsing, a prompt, a picker, a panel. Each takes the keys while it is
/// in force; `Controller` picks the mode from the UI state and hands it the key.
protocol KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext)
}

extension UIState {
    /// The mode that takes keys now.
    var keyMode: any KeyMode.Type {
        if filterField != nil { return FilterPromptMode.self }
        switch overlay {
        case nil:
            if zoom != nil { return LoupeMode.self }
            return compare == nil ? BrowsingMode.self : CompareMode.self
        case .help, .details: return ScrollingPanelMode.self
        case .queue: return QueuePanelMode.self
        case .picker(let picker) where picker.kind == .manageTags: return TagManagerMode.self
        case .picker: return PickerMode.self
        case .prompt: return TagPromptMode.self
        case .editForm: return EditFormMode.self
        case .confirmQuit: return ConfirmQuitMode.self
        case .stats: return StatsMode.self
        }
    }
}
