import Foundation
import PhotoPickSettings

/// Input: every byte from the terminal goes through one `InputDecoder`; only keys, clicks and pastes
/// come out. Replies are logged, and a late one that shows the terminal can show more is said once.
extension TerminalDriver {
    /// Mouse clicks and the wheel (1000) in SGR form (1006), and bracketed paste (2004).
    private static let reportsOn = Array("\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h".utf8)
    private static let reportsOff = Array("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l".utf8)

    func enableReports() {
        guard output == nil else { return }
        writeNow(Self.reportsOn)
    }

    func disableReports() {
        writeNow(Self.reportsOff)
    }

    /// Writes after ncurses's pending output, never inside an image unit.
    func writeNow(_ bytes: [UInt8]) {
        let write = {
            if let terminalOutput = self.terminalOutput { fflush(terminalOutput) }
            Self.writeAll(bytes, to: STDOUT_FILENO)
        }
        if let wire { wire.withWire(write) } else { write() }
    }

    /// The decoder's clock: the driver's.
    private var inputNow: Duration { clock.elapsed() }

    /// When, on the driver's clock, the decoder must be asked again though nothing came: a lone Esc, an
    /// unfinished sequence.
    var inputDeadline: Duration? {
        decoder.deadline
    }

    /// Every key, click and paste waiting, without blocking: the bytes on stdin, read and decoded.
    func readInput() -> [InputEvent] {
        var events = pendingInput
        pendingInput = []
        guard isActive, output == nil else { return events }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 0)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, poller.revents & Int16(POLLIN) != 0 else { break }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            events += decode(buffer[0..<count], probe: false)
        }
        return events
    }

    /// What the decoder decides once its deadline passed with nothing new: the Escape key, or a dropped sequence.
    func expireInput() -> [InputEvent] {
        route(decoder.expire(at: inputNow), probe: false)
    }

    /// A late reply's advice, once: the terminal can show more than the mode in force.
    func takeLateAdvice() -> String? {
        defer { lateAdvice = nil }
        return lateAdvice
    }

    func decode(_ bytes: some Collection<UInt8>, probe: Bool) -> [InputEvent] {
        route(decoder.feed(bytes, at: inputNow), probe: probe)
    }

    private func route(_ inputs: [TerminalInput], probe: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        for input in inputs {
            switch input {
            case .key(let key): events.append(.key(key))
            case .mouse(let mouse): events.append(.mouse(mouse))
            case .paste(let text): events.append(.paste(text))
            case .reply(let sequence):
                if !probe, let wire, TerminalReplies.isDeviceAttributes(sequence) {
                    // The writer's query, answered: what it wrote before has been read.
                    wire.answered()
                    continue
                }
                logger?.debug("terminal reply\(probe ? " (probe)" : ""): \(TerminalReplies.escaped(Array(sequence.prefix(120))))")
                if !probe { lateReply(sequence) }
            case .dropped(let prefix, let length):
                logger?.debug("input dropped, \(length) bytes: \(TerminalReplies.escaped(prefix))")
            }
        }
        return events
    }

    /// Reads a reply the probe did not wait for. Switching modes with images on screen would change how
    /// every preview is drawn under the user's eyes, so photopick says how to start with the better mode.
    private func lateReply(_ sequence: [UInt8]) {
        lateReplies.read(sequence)
        guard !hasGivenLateAdvice, let findings, graphics.mode == .symbols, findings.requested == .auto else { return }
        let onTime = findings.replies
        let better: GraphicsMode? =
            if lateReplies.kittyGraphics, onTime?.kittyGraphics != true { .kitty }
            else if lateReplies.sixel, onTime?.sixel != true { .sixel }
            else { nil }
        guard let better else { return }
        hasGivenLateAdvice = true
        lateAdvice = "The terminal answered late that it shows \(better.rawValue) images: start with --graphics \(better.rawValue) to use them"
        logger?.info("late terminal reply: \(better.rawValue) available, symbols in use")
    }
}
