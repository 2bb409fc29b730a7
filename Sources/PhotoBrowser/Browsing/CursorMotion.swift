/// Ways the cursor moves through the list.
public enum CursorMotion: Sendable, Equatable {
    case up, down
    case pageUp, pageDown
    case halfPageUp, halfPageDown
    case top, bottom
    /// To a position in the filtered list, as a mouse click does.
    case position(Int)
}
