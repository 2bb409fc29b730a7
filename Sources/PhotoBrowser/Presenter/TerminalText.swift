/// Makes server text safe to put on a terminal: control, escape and direction-changing characters
/// become visible placeholders, so a name can never move the cursor, recolour the screen or reorder a line.
public enum TerminalText {
    /// `text` with every unsafe character replaced by a visible one (`␛` for ESC, `␊` for a line feed, `�` otherwise).
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            // A zero-width joiner inside an emoji sequence (👨‍👩‍👧) is how the emoji is spelled, not a trick.
            let joinsEmoji = scalar == "\u{200D}" && (previous.map { $0.value > 0xFF && $0.properties.isEmoji } ?? false)
            result.append(isUnsafe(scalar) && !joinsEmoji ? placeholder(for: scalar) : scalar)
            previous = scalar
        }
        return String(result)
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                  // C0 and C1 controls, DEL
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F: true // zero-width, separators, bidi controls
        case 0xFEFF, 0xFFF9...0xFFFB: true                    // BOM, interlinear annotations
        default: false
        }
    }

    private static func placeholder(for scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value)! // the Control Pictures block: ␀ … ␟
        case 0x7F: "\u{2421}"                                  // ␡
        default: "\u{FFFD}"
        }
    }
}
