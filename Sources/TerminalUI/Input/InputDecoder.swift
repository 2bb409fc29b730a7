import PhotoPickSettings

/// What the terminal sent, as `InputDecoder` reads it. Only keys, clicks and pastes reach the controller;
/// replies and dropped bytes are for the driver's log and its late look at the probe.
enum TerminalInput: Sendable, Equatable {
    case key(Key)
    case mouse(MouseEvent)
    /// Bracketed paste: text for the field that has focus, never keys.
    case paste(String)
    /// A whole answer from the terminal (a report, a reply to a query, a focus change): never a key.
    case reply([UInt8])
    /// Bytes that are no key: a sequence nothing is bound to, a string cut at the limit, broken UTF-8.
    /// The first bytes, for the log, and how many there were.
    case dropped(prefix: [UInt8], length: Int)
}

/// Reads the bytes the terminal sends as ECMA-48: CSI, SS3, OSC, DCS, APC, PM and SOS are consumed whole,
/// up to their final byte or ST/BEL, however they are split across reads and however long they are; only
/// known keys, mouse reports and pastes come out as input. Hand-written because ncurses' keypad decoding
/// hands an unknown or late sequence on byte by byte, and no library here parses terminal input.
///
/// Time is passed in, so tests run on their own clock. A lone Esc is the Escape key once `escapeDelay`
/// passes with nothing after it; Esc and a key in one read (or within the delay) is Alt+key, as in ncurses,
/// vim and tmux. An unfinished sequence is dropped after `sequenceTimeout` of silence, so a runaway string
/// cannot swallow keys for ever.
struct InputDecoder: Sendable {
    /// How long a lone Esc waits for more before it is the Escape key (ncurses' ESCDELAY, tmux's escape-time).
    static let escapeDelay: Duration = .milliseconds(25)
    /// How long a control sequence or string may take from its ESC, and the silence that ends a paste.
    static let sequenceTimeout: Duration = .seconds(1)
    /// How long after a timed-out Esc a read that starts with the rest of a reply is still taken as that
    /// reply: a slow link may split a reply after its Esc.
    static let lateWindow: Duration = .seconds(1)
    /// The longest control sequence or string kept; longer ones are consumed and dropped.
    static let sequenceLimit = 4096
    /// The longest paste kept; the rest is consumed and dropped.
    static let pasteLimit = 1 << 20

    private enum State: Sendable, Equatable {
        case ground
        /// ESC seen.
        case escape
        case csi
        case ss3
        /// DCS, OSC, APC, PM or SOS; `afterEscape` when its last byte was ESC (ST's first half).
        case string(afterEscape: Bool)
        /// `CSI M`: three raw bytes of an X10 mouse report follow.
        case mouseX10
        /// `CSI [`: the Linux console's F1–F5 are one letter more.
        case linuxFunction
        /// Inside bracketed paste, until `CSI 201~`.
        case paste
        /// A UTF-8 character with `needed` bytes to come; `alt` when ESC came before it.
        case utf8(needed: Int, alt: Bool)
    }

    private var state = State.ground
    /// The sequence being read, ESC included, up to `sequenceLimit` bytes.
    private var sequence: [UInt8] = []
    /// Its length, counting bytes past the limit.
    private var length = 0
    private var pasted: [UInt8] = []
    private var pastedLength = 0
    /// When the last byte came.
    private var lastInput: Duration = .zero
    /// When the sequence being read began (its ESC came).
    private var sequenceStart: Duration = .zero
    /// When an Esc that timed out as the Escape key came, for the late rule; only the next read uses it.
    private var timedOutEscape: Duration?

    init() {}

    /// When `expire` has something to do: the Escape key or an unfinished sequence; nil when waiting for nothing.
    var deadline: Duration? {
        switch state {
        case .ground: nil
        case .escape: lastInput + Self.escapeDelay
        case _ where isIntroducerAlone: lastInput + Self.escapeDelay
        // A terminal writes a reply at once, so one still unfinished a second after its ESC never will
        // be: bounded from its start, so that keys typed into it cannot keep it open.
        case .csi, .ss3, .string, .mouseX10, .linuxFunction: sequenceStart + Self.sequenceTimeout
        // A paste or a character arrives as long as bytes keep coming.
        case .paste, .utf8: lastInput + Self.sequenceTimeout
        }
    }

    /// Reads one read's bytes, which came at `now`.
    mutating func feed(_ bytes: some Collection<UInt8>, at now: Duration) -> [TerminalInput] {
        var output = expire(at: now)
        let late = timedOutEscape
        timedOutEscape = nil
        guard !bytes.isEmpty else { return output }
        if let late, now - late <= Self.lateWindow, state == .ground, let first = bytes.first, Self.introducers.contains(first) {
            // The rest of a reply whose Esc came alone: taken as that reply only when this read holds it whole.
            var trial = self
            var trialOutput: [TerminalInput] = []
            trial.take(0x1B, at: now, into: &trialOutput)
            for byte in bytes { trial.take(byte, at: now, into: &trialOutput) }
            if case .reply = trialOutput.first {
                self = trial
                return output + trialOutput
            }
        }
        for byte in bytes { take(byte, at: now, into: &output) }
        return output
    }

    /// What waiting until `now` decides: a lone Esc becomes the Escape key, Esc and an introducer alone
    /// become Alt+that key, and a sequence that stopped arriving is dropped.
    mutating func expire(at now: Duration) -> [TerminalInput] {
        guard let deadline, now >= deadline else { return [] }
        defer { reset() }
        switch state {
        case .escape:
            timedOutEscape = lastInput
            return [.key(.escape)]
        case _ where isIntroducerAlone:
            return [.key(.alt(Character(Unicode.Scalar(sequence[1]))))]
        case .paste:
            return [.paste(pastedText(ended: false))]
        default:
            return [droppedSequence()]
        }
    }

    /// Whether only ESC and an introducer came: Alt+`[`, say, unless more follows at once.
    private var isIntroducerAlone: Bool {
        switch state {
        case .csi, .ss3, .string: length == 2
        default: false
        }
    }

    /// The second bytes of ESC sequences that open a control sequence or string.
    private static let introducers: Set<UInt8> = Set("[O]P_^X".utf8)

    private mutating func reset() {
        state = .ground
        sequence.removeAll(keepingCapacity: true)
        length = 0
    }

    private mutating func append(_ byte: UInt8) {
        if sequence.count < Self.sequenceLimit { sequence.append(byte) }
        length += 1
    }

    private func droppedSequence() -> TerminalInput {
        .dropped(prefix: Array(sequence.prefix(64)), length: length)
    }

    /// Drops the sequence together with `byte`, which cannot continue it.
    private mutating func drop(including byte: UInt8, _ output: inout [TerminalInput]) {
        append(byte)
        output.append(droppedSequence())
        reset()
    }

    /// Starts a new escape sequence after dropping the unfinished one that an ESC cut short.
    private mutating func restartAtEscape(_ output: inout [TerminalInput]) {
        output.append(droppedSequence())
        reset()
        state = .escape
        sequenceStart = lastInput
        append(0x1B)
    }

    private mutating func take(_ byte: UInt8, at now: Duration, into output: inout [TerminalInput]) {
        lastInput = now
        switch state {
        case .ground: ground(byte, &output)
        case .escape: escape(byte, &output)
        case .csi: controlSequence(byte, &output)
        case .ss3: singleShift(byte, &output)
        case .string(let afterEscape): string(byte, afterEscape: afterEscape, &output)
        case .mouseX10:
            append(byte)
            guard sequence.count == 6 else { return }
            if let mouse = Self.x10Mouse(sequence[3], sequence[4], sequence[5]) { output.append(.mouse(mouse)) }
            else { output.append(droppedSequence()) }
            reset()
        case .linuxFunction:
            append(byte)
            if (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(byte) { output.append(.key(.function(Int(byte) - 0x40))) }
            else { output.append(droppedSequence()) }
            reset()
        case .paste: paste(byte, &output)
        case .utf8(let needed, let alt): utf8(byte, needed: needed, alt: alt, &output)
        }
    }

    private mutating func ground(_ byte: UInt8, _ output: inout [TerminalInput]) {
        switch byte {
        case 0x1B:
            state = .escape
            sequenceStart = lastInput
            append(byte)
        case 0x20...0x7E:
            output.append(.key(.character(Character(Unicode.Scalar(byte)))))
        case 0xC2...0xF4:
            state = .utf8(needed: byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1, alt: false)
            append(byte)
        default:
            if byte < 0x20 || byte == 0x7F, let key = Self.controlKey(byte) { output.append(.key(key)) }
            else { output.append(.dropped(prefix: [byte], length: 1)) }
        }
    }

    private mutating func escape(_ byte: UInt8, _ output: inout [TerminalInput]) {
        switch byte {
        case UInt8(ascii: "["):
            state = .csi
            append(byte)
        case UInt8(ascii: "O"):
            state = .ss3
            append(byte)
        case UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            state = .string(afterEscape: false)
            append(byte)
        case 0x1B:
            // Esc twice: the first was a key of its own.
            output.append(.key(.escape))
            sequenceStart = lastInput
        case UInt8(ascii: "\\"):
            // ST with no string before it: a terminal's leftover, not Alt+\.
            drop(including: byte, &output)
        case 0x20...0x7E:
            // Terminals send no nF escapes (ESC with intermediates) as input: Esc and `/` are Alt-/.
            output.append(.key(.alt(Character(Unicode.Scalar(byte)))))
            reset()
        case 0xC2...0xF4:
            state = .utf8(needed: byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1, alt: true)
            sequence = [byte]
            length = 1
        case 0x00..<0x20, 0x7F:
            // Esc, then a control key within the Esc delay (Esc then Ctrl-Z, typed or scripted): both keys,
            // as ncurses gave them; no key is bound to Alt with a control.
            output.append(.key(.escape))
            reset()
            ground(byte, &output)
        default:
            // A byte no UTF-8 character starts with: nothing.
            drop(including: byte, &output)
        }
    }

    private mutating func controlSequence(_ byte: UInt8, _ output: inout [TerminalInput]) {
        switch byte {
        case 0x1B: restartAtEscape(&output)
        case 0x20...0x3F: append(byte)
        case 0x40...0x7E:
            append(byte)
            if length == 3, byte == UInt8(ascii: "M") { return state = .mouseX10 }
            if length == 3, byte == UInt8(ascii: "[") { return state = .linuxFunction }
            if length <= Self.sequenceLimit, sequence == Self.pasteStart {
                reset()
                state = .paste
                pasted.removeAll(keepingCapacity: true)
                pastedLength = 0
                return
            }
            output.append(length > Self.sequenceLimit ? droppedSequence() : Self.readControlSequence(sequence))
            reset()
        case 0x18, 0x1A:
            // CAN and SUB cancel a sequence.
            drop(including: byte, &output)
        case 0x00..<0x20:
            // A control inside a sequence would be executed by a terminal; here it is only counted.
            length += 1
        default:
            drop(including: byte, &output)
        }
    }

    private mutating func singleShift(_ byte: UInt8, _ output: inout [TerminalInput]) {
        switch byte {
        case 0x1B: restartAtEscape(&output)
        case 0x30...0x3F: append(byte)
        case 0x40...0x7E:
            append(byte)
            if let key = Self.ssThreeKey(byte) { output.append(.key(key)) } else { output.append(droppedSequence()) }
            reset()
        default:
            drop(including: byte, &output)
        }
    }

    private mutating func string(_ byte: UInt8, afterEscape: Bool, _ output: inout [TerminalInput]) {
        if afterEscape {
            if byte == UInt8(ascii: "\\") {
                append(byte)
                return finishString(&output)
            }
            // ESC and anything else ends the string unfinished and starts a new sequence.
            restartAtEscape(&output)
            return escape(byte, &output)
        }
        switch byte {
        case 0x1B:
            append(byte)
            state = .string(afterEscape: true)
        case 0x07:
            append(byte)
            finishString(&output)
        case 0x08...0x0D, 0x20...0x7E:
            append(byte)
        case 0x80...0xFF where sequence[1] == UInt8(ascii: "]") || sequence[1] == UInt8(ascii: "X"):
            // OSC carries UTF-8 (titles, paths); SOS anything.
            append(byte)
        default:
            // Not a byte a string of this kind holds (CAN, SUB, other controls; 8-bit in DCS, APC, PM):
            // it was never a reply, and what follows is read afresh.
            drop(including: byte, &output)
        }
    }

    private mutating func finishString(_ output: inout [TerminalInput]) {
        output.append(length > Self.sequenceLimit ? droppedSequence() : .reply(sequence))
        reset()
    }

    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private mutating func paste(_ byte: UInt8, _ output: inout [TerminalInput]) {
        // The end marker is looked for in a small window of the latest bytes, so the kept text may stop at the limit.
        if sequence.count == Self.pasteEnd.count { sequence.removeFirst() }
        sequence.append(byte)
        pastedLength += 1
        if pasted.count < Self.pasteLimit + Self.pasteEnd.count { pasted.append(byte) }
        guard sequence == Self.pasteEnd else { return }
        output.append(.paste(pastedText(ended: true)))
        reset()
    }

    private mutating func pastedText(ended: Bool) -> String {
        let content = ended ? pastedLength - Self.pasteEnd.count : pastedLength
        let text = String(decoding: pasted.prefix(min(content, Self.pasteLimit)), as: UTF8.self)
        pasted.removeAll(keepingCapacity: false)
        pastedLength = 0
        return text
    }

    private mutating func utf8(_ byte: UInt8, needed: Int, alt: Bool, _ output: inout [TerminalInput]) {
        guard (0x80...0xBF).contains(byte) else {
            // Broken UTF-8: dropped, and the byte read afresh.
            output.append(droppedSequence())
            reset()
            return ground(byte, &output)
        }
        append(byte)
        if needed > 1 { return state = .utf8(needed: needed - 1, alt: alt) }
        if let text = String(validating: sequence, as: UTF8.self), let character = text.first, text.count == 1 {
            output.append(.key(alt ? .alt(character) : .character(character)))
        } else {
            output.append(droppedSequence())
        }
        reset()
    }
}
