/// tmux's passthrough: a sequence for the outer terminal goes inside `ESC P tmux; … ESC \`, with each
/// ESC in it doubled, and tmux (with `allow-passthrough on`) hands it on unchanged.
enum TmuxPassthrough {
    /// `sequence` wrapped for the terminal outside tmux.
    static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var wrapped: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(sequence.count + 16)
        for byte in sequence {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        wrapped += [0x1B, UInt8(ascii: "\\")]
        return wrapped
    }
}
