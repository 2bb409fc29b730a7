/// How many terminal columns text takes, by the rules terminals and glibc's `wcwidth` use: East Asian
/// wide and fullwidth characters and emoji shown as emoji take two, combining marks none.
///
/// A grapheme cluster is drawn as its first scalar plus any combining marks (`TerminalGlyph`), so a
/// zero-width joiner sequence or a variation selector can never make the terminal and photopick
/// disagree about where the next column is.
public enum DisplayWidth {
    /// Columns taken by one scalar: 0, 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        // Where glibc's table (which ncurses moves the cursor by) parts from the general rule: the
        // prepended concatenation marks take a column; Hangul's medial vowels and final consonants
        // join the syllable before them; regional indicators are one column each.
        if prependedMarks.contains(where: { $0.contains(value) }) { return 1 }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FB).contains(value) || value == 0x1171E { return 0 }
        if (0x1F1E6...0x1F1FF).contains(value) { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if isWide(value) { return 2 }
        return 1
    }

    private static let prependedMarks: [ClosedRange<UInt32>] = [0x600...0x605, 0x6DD...0x6DD, 0x70F...0x70F, 0x890...0x891, 0x8E2...0x8E2, 0x110BD...0x110BD, 0x110CD...0x110CD]

    /// Emoji whose width terminals disagree about: pictographs from U+1F000 on that are text by default
    /// (🏔 U+1F3D4, 🕊, 🗺) and regional indicators (flags' halves). glibc, ncurses and xterm give them one
    /// column, kitty 0.26 two, with or without VS16; whatever photopick wrote after one would land a
    /// column off in one or the other, and stay there as debris. They are drawn as U+FFFD.
    static func isDisputed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1F000 else { return false }
        if (0x1F1E6...0x1F1FF).contains(value) { return true }
        return scalar.properties.isEmoji && !scalar.properties.isEmojiPresentation
    }

    /// Columns taken by text, once drawn as `TerminalGlyph`s.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += TerminalGlyph(character).width }
        return total
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15), and emoji with emoji presentation.
    static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        if value >= 0x1F000, let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation { return true }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x4DC0...0x4DFF, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18CFF, 0x18D00...0x18D08, 0x1AFF0...0x1AFFE, 0x1B000...0x1B2FF, 0x1F200...0x1F202, 0x1F210...0x1F23B,
        0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

/// What one grapheme cluster becomes on screen: its first scalar and the combining marks after it,
/// with joiners, variation selectors and further scalars left out, and its width in columns.
struct TerminalGlyph: Sendable, Equatable {
    /// The scalars to draw.
    let text: String
    /// Columns: 1 or 2 (a zero-width or control cluster, or one whose width terminals dispute, becomes `�`).
    let width: Int

    init(_ character: Character) {
        if character.isASCII, let ascii = character.asciiValue, ascii >= 0x20, ascii != 0x7F {
            text = String(character)
            width = 1
            return
        }
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next(), !DisplayWidth.isDisputed(first), case let firstWidth = DisplayWidth.of(first), firstWidth > 0 else {
            text = "\u{FFFD}"
            width = 1
            return
        }
        var drawn = String.UnicodeScalarView([first])
        // ncurses keeps at most four combining marks with a spacing character.
        while drawn.count < 5, let next = scalars.next() {
            // Variation selectors are marks too, but VS16 asks for emoji presentation, two columns in
            // some terminals and one in glibc: left out, the base is shown as it is by default.
            if (0xFE00...0xFE0F).contains(next.value) || (0xE0100...0xE01EF).contains(next.value) { continue }
            let category = next.properties.generalCategory
            guard category == .nonspacingMark || category == .enclosingMark else { break }
            drawn.append(next)
        }
        text = String(drawn)
        width = firstWidth
    }
}
