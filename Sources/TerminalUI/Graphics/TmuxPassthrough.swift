/// tmux's passthrough: a sequence for the outer terminal goes inside `ESC P tmux; … ESC \`, with each
/// ESC in it doubled, and tmux (with `allow-passthrough on`) hands it on unchanged.
enum TmuxPassthrough {
    private static let opening = Array("\u{1B}Ptmux;".utf8)
    private static let closing: [UInt8] = [0x1B, UInt8(ascii: "\\")]

    /// `sequence` wrapped for the terminal outside tmux.
    static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var wrapped = opening
        wrapped.reserveCapacity(sequence.count + 16)
        appendDoubled(sequence, to: &wrapped)
        return wrapped + closing
    }

    /// A sequence sent as a head, a body that holds no ESC (base64) and a tail, wrapped without copying
    /// the body: the passthrough's opening and the head's doubled escapes before it, the tail's and the
    /// closing after.
    static func wrap(head: [UInt8], tail: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        var before = opening, after: [UInt8] = []
        appendDoubled(head, to: &before)
        appendDoubled(tail, to: &after)
        return (before, after + closing)
    }

    private static func appendDoubled(_ bytes: [UInt8], to wrapped: inout [UInt8]) {
        for byte in bytes {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
    }
}
