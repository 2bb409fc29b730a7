/// What every view and the screen draw with: the context (theme, keys, previews, the frame's
/// moment), and the drawing tools the views share (chips, marks, previews, dialogs, scroll bars),
/// which live in extensions of this protocol beside the views that use them most.
protocol Drawing {
    /// The theme, keys, previews and the frame's moment.
    var context: ViewContext { get }
}

extension Drawing {
    var theme: Theme { context.theme }
}

/// A part of the screen, as a value: made from the state it shows and the area it was given, it draws
/// into a canvas and changes nothing else. `Screen` lays the frame out once and draws the views in
/// turn; a test can draw one alone.
protocol View: Drawing {
    /// Draws the view into `canvas`, within its area.
    func draw(in canvas: inout Canvas)
}
