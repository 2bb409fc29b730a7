import PhotoPickSettings

/// Which sequences are keys, clicks and replies: xterm's, with the VT220, rxvt and Linux console variants.
extension InputDecoder {
    /// A control byte as a key: Enter, Tab, Backspace, Ctrl-letters; nil for the rest (Ctrl-Space, Ctrl-\ …).
    static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 13, 10: .enter
        case 9: .tab
        case 127, 8: .backspace
        case 1...26: .control(Character(Unicode.Scalar(byte + 96)))
        default: nil
        }
    }

    /// A complete `CSI … final` read: a key, a mouse report, a reply, or dropped.
    static func readControlSequence(_ sequence: [UInt8]) -> TerminalInput {
        let body = sequence[2..<(sequence.count - 1)]
        let final = sequence[sequence.count - 1]
        let dropped = TerminalInput.dropped(prefix: Array(sequence.prefix(64)), length: sequence.count)
        if let marker = body.first, (0x3C...0x3F).contains(marker) {
            // Keys carry no private marker; `<` is the SGR mouse, and the rest are the terminal's answers.
            guard marker == UInt8(ascii: "<") else { return .reply(sequence) }
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return dropped }
            let fields = numbers(body.dropFirst())
            guard fields.count == 3, let button = fields[0], let x = fields[1], let y = fields[2], x >= 1, y >= 1 else { return dropped }
            guard final == UInt8(ascii: "M"), let mouse = mouse(button: button, x: x - 1, y: y - 1) else { return dropped }
            return .mouse(mouse)
        }
        let fields = numbers(body)
        let hasIntermediate = body.contains { (0x20...0x2F).contains($0) }
        if !hasIntermediate, let key = csiKey(final: final, fields: fields) { return .key(key) }
        switch final {
        case UInt8(ascii: "I"), UInt8(ascii: "O"):
            // Focus in and out.
            return body.isEmpty ? .reply(sequence) : dropped
        case UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "R"), UInt8(ascii: "c"), UInt8(ascii: "y"):
            // Window reports, status and cursor position reports, DA1 without its marker, mode reports.
            return fields.isEmpty ? dropped : .reply(sequence)
        default:
            return dropped
        }
    }

    /// Keys whose final byte names them: arrows, Home/End, Shift-Tab, F1–F4, and the `~` family.
    /// Modifiers (`1;5A` for Ctrl-Up) are read past: the key is the same key.
    private static func csiKey(final: UInt8, fields: [Int?]) -> Key? {
        let first = fields.first ?? nil
        switch final {
        case UInt8(ascii: "A"): return fields.count <= 2 ? .up : nil
        case UInt8(ascii: "B"): return fields.count <= 2 ? .down : nil
        case UInt8(ascii: "C"): return fields.count <= 2 ? .right : nil
        case UInt8(ascii: "D"): return fields.count <= 2 ? .left : nil
        case UInt8(ascii: "H"): return fields.count <= 2 && (first ?? 1) == 1 ? .home : nil
        case UInt8(ascii: "F"): return fields.count <= 2 && (first ?? 1) == 1 ? .end : nil
        case UInt8(ascii: "Z"): return fields.isEmpty ? .backTab : nil
        case UInt8(ascii: "P"), UInt8(ascii: "Q"), UInt8(ascii: "S"):
            return fields.isEmpty || (fields.count == 2 && first == 1) ? .function(Int(final) - 0x4F) : nil
        case UInt8(ascii: "R"):
            // `CSI R` alone is F3; with numbers it is a cursor position report.
            return fields.isEmpty ? .function(3) : nil
        case UInt8(ascii: "~"):
            guard fields.count <= 2, let number = first else { return nil }
            return tildeKey(number)
        default:
            return nil
        }
    }

    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 4, 8: .end
        case 3: .delete
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
    }

    /// `ESC O` keys: arrows and Home/End in application mode, F1–F4, and the keypad in application mode.
    static func ssThreeKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(final) - 0x4F)
        case UInt8(ascii: "p")...UInt8(ascii: "y"): .character(Character(Unicode.Scalar(final - 0x40)))
        case UInt8(ascii: "j"): .character("*")
        case UInt8(ascii: "k"): .character("+")
        case UInt8(ascii: "l"): .character(",")
        case UInt8(ascii: "m"): .character("-")
        case UInt8(ascii: "n"): .character(".")
        case UInt8(ascii: "o"): .character("/")
        case UInt8(ascii: "X"): .character("=")
        default: nil
        }
    }

    /// An X10 mouse report's three bytes, each offset by 32.
    static func x10Mouse(_ button: UInt8, _ x: UInt8, _ y: UInt8) -> MouseEvent? {
        guard button >= 32, x >= 33, y >= 33 else { return nil }
        let code = Int(button) - 32
        // Button 3 is X10's release.
        guard code & 3 != 3 || code & 64 != 0 else { return nil }
        return mouse(button: code, x: Int(x) - 33, y: Int(y) - 33)
    }

    /// A press: the left button is a click, the wheel scrolls; drags, other buttons and modifiers' motion are none.
    private static func mouse(button: Int, x: Int, y: Int) -> MouseEvent? {
        guard button & 32 == 0 else { return nil }
        if button & 64 != 0 {
            switch button & 3 {
            case 0: return MouseEvent(.wheelUp, x: x, y: y)
            case 1: return MouseEvent(.wheelDown, x: x, y: y)
            default: return nil
            }
        }
        return button & 0b1100_0011 == 0 ? MouseEvent(.click, x: x, y: y) : nil
    }

    /// A sequence's numbers: `1;5` is [1, 5], an empty field nil; the private marker is left out by the caller.
    private static func numbers(_ body: ArraySlice<UInt8>) -> [Int?] {
        let digits = body.prefix { (0x30...0x3B).contains($0) }
        guard !digits.isEmpty else { return [] }
        return digits.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            guard !field.isEmpty, field.count <= 9, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return field.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}
