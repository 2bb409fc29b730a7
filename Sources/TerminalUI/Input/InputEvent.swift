import PhotoPickSettings

/// A mouse event in canvas coordinates.
struct MouseEvent: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case click, wheelUp, wheelDown
    }

    let kind: Kind
    let x: Int
    let y: Int

    init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// What the terminal delivers to the controller.
enum InputEvent: Sendable, Equatable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text the user pasted (bracketed paste): it goes into the field that has focus and never runs a command.
    case paste(String)
}
