import PhotoBrowser

/// At most one frame per interval: a frame is drawn at once when the last is old enough, otherwise one
/// is scheduled for when it will be. Pure: the app gives it the time (`Timekeeper.elapsed`).
struct FrameClock {
    let interval: Duration = .milliseconds(16)
    private var lastFrame: Duration?
    private var scheduled = false

    /// Whether to draw at `now`; when not, asks `schedule` once for a frame event at the due time.
    mutating func shouldDraw(at now: Duration, scheduling schedule: (Duration) -> Void) -> Bool {
        guard let lastFrame, now - lastFrame < interval else { return true }
        if !scheduled {
            scheduled = true
            schedule(lastFrame + interval)
        }
        return false
    }

    /// The scheduled frame event arrived.
    mutating func frameFired() { scheduled = false }

    /// A frame was drawn at `now`.
    mutating func frameDrawn(at now: Duration) { lastFrame = now }
}

/// The layout for the next frame, kept while its inputs stay the same, so that a frame computes it
/// at most once however many events came before it.
struct LayoutMemo {
    private struct Inputs: Equatable {
        let width: Int, height: Int, showsStrip: Bool, mode: UIState.Mode
    }

    private var last: (inputs: Inputs, layout: ScreenLayout)?

    mutating func layout(width: Int, height: Int, state: BrowserState, mode: UIState.Mode, screen: Screen) -> ScreenLayout {
        let inputs = Inputs(width: width, height: height, showsStrip: Screen.showsStrip(state), mode: mode)
        if let last, last.inputs == inputs { return last.layout }
        let layout = screen.layout(width: width, height: height, state: state, mode: mode)
        last = (inputs, layout)
        return layout
    }
}
