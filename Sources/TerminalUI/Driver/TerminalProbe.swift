import CNcursesw
import Foundation
import PhotoPickKit
import PhotoBrowser
import PhotoImaging
import PhotoPickSettings

/// Asks the terminal what it can show, before ncurses starts: one batch of queries on `/dev/tty` in raw
/// mode (XTVERSION, the kitty graphics query, XTSMGRAPHICS, `CSI 16t`, OSC 11's background, and DA1 last, which every
/// terminal answers), read until DA1's reply or the deadline. Inside tmux each query is wrapped for
/// passthrough, DA1 too, since tmux answers a bare DA1 itself at once.
public struct TerminalProbe: Sendable {
    /// What the probe found, for choosing the graphics and for `photopick doctor`.
    public struct Findings: Sendable {
        /// The choice made from them.
        public var graphics: Graphics
        /// The replies; nil when the terminal was not asked.
        public var replies: TerminalReplies?
        /// tmux's `allow-passthrough`, when inside tmux.
        public var tmuxPassthrough: String?
        /// tmux and the terminal outside it as tmux describes them, when inside tmux.
        public var tmux: GraphicsChoice.Tmux?
        /// The window in cells and pixels as the kernel has it.
        public var window: (columns: Int, rows: Int, width: Int, height: Int)?
        /// How long the probe took.
        public var elapsed: Duration
        /// The mode asked for: a late reply is worth a word only when the choice was photopick's.
        public var requested: GraphicsMode = .auto
    }

    /// DA1: every terminal answers it, in order, once it has read what came before.
    static let deviceAttributes = Array("\u{1B}[c".utf8)

    /// The queries, in order; DA1 is last.
    static let queries: [[UInt8]] = [
        Array("\u{1B}[>0q".utf8), KittyCommands.query, Array("\u{1B}[?1;1;0S".utf8), Array("\u{1B}[?2;1;0S".utf8),
        Array("\u{1B}[16t".utf8), Array("\u{1B}]11;?\u{1B}\\".utf8), deviceAttributes,
    ]

    /// The longest the probe waits for a terminal that does not answer.
    public var deadline: Duration = .milliseconds(900)
    /// What the waits and the link's times are measured by.
    let clock: Timekeeper

    /// A probe with the standard deadline, timed by `clock`.
    public init(clock: Timekeeper) {
        self.clock = clock
    }

    /// Probes the terminal (unless `requested` is symbols and nothing needs asking) and chooses.
    public func run(requested: GraphicsMode, environment: [String: String]) -> Findings {
        let start = clock.elapsed()
        let term = environment["TERM"] ?? ""
        var tmux: GraphicsChoice.Tmux?
        var passthrough: String?
        if environment["TMUX"] != nil {
            let described = Self.tmuxDescription(pane: environment["TMUX_PANE"])
            passthrough = described?.passthrough ?? Self.tmuxOption("allow-passthrough")
            tmux = described?.tmux ?? GraphicsChoice.Tmux(passthrough: GraphicsChoice.Tmux.allowsPassthrough(passthrough))
        }
        var window: (columns: Int, rows: Int, width: Int, height: Int)?
        var replies: TerminalReplies?
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            var width: Int32 = 0, height: Int32 = 0, rows: Int32 = 0, columns: Int32 = 0
            if cnc_terminal_pixels(descriptor, &width, &height, &rows, &columns) == 0 {
                window = (Int(columns), Int(rows), Int(width), Int(height))
            }
            // tmux 3.4 and later answers DA1 itself with 4 when it draws sixel: asked alone, before anything
            // goes to the terminal outside, so the two answers cannot be confused.
            if tmux != nil, term != "dumb", Self.mayDrawSixel(tmux?.version) {
                let answer = Self.inRawMode(descriptor) { TerminalReplies.parse(exchange(descriptor, Self.deviceAttributes, deadline: .milliseconds(300)).received) }
                tmux?.drawsSixel = answer?.sixel ?? false
            }
            // Asked unless nothing could come of it: a dumb terminal, or tmux that would swallow the queries.
            if term != "dumb", !term.isEmpty, tmux?.passthrough ?? true {
                replies = ask(descriptor, wrapped: tmux != nil)
            }
        }
        var kernelCell: PixelSize?
        if let window, window.width > 0, window.height > 0, window.columns > 0, window.rows > 0 {
            kernelCell = PixelSize(width: window.width / window.columns, height: window.height / window.rows)
        }
        let choice = GraphicsChoice(
            requested: requested, environment: environment, replies: replies, kernelCell: kernelCell, tmux: tmux,
            terminfo: Self.terminfo(term)
        )
        return Findings(graphics: choice.graphics, replies: replies, tmuxPassthrough: passthrough, tmux: tmux, window: window,
                        elapsed: clock.elapsed() - start, requested: requested)
    }

    /// What tmux says of itself and of the terminal outside, in one call; nil when it cannot be asked.
    static func tmuxDescription(pane: String?) -> (tmux: GraphicsChoice.Tmux, passthrough: String)? {
        let fields = ["allow-passthrough", "version", "client_termfeatures", "client_termname", "client_termtype"]
        let target = pane.map { ["-t", $0] } ?? []
        guard let line = tmux(["display-message", "-p"] + target + [fields.map { "#{\($0)}" }.joined(separator: "\t")]) else { return nil }
        return parseTmuxDescription(line)
    }

    /// The fields `tmuxDescription` asks for, tab-separated as tmux prints them (an unknown field is empty).
    static func parseTmuxDescription(_ line: String) -> (tmux: GraphicsChoice.Tmux, passthrough: String)? {
        let values = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard values.count == 5 else { return nil }
        func value(_ index: Int) -> String? { values[index].isEmpty ? nil : values[index] }
        let features = Set(values[2].split(separator: ",").map(String.init))
        let tmux = GraphicsChoice.Tmux(
            passthrough: GraphicsChoice.Tmux.allowsPassthrough(values[0]), version: value(1),
            // tmux before 3.2 has no client_termfeatures: unknown, not none.
            features: value(1) == nil ? nil : features, outerTerm: value(3), outerType: value(4)
        )
        return (tmux, values[0])
    }

    /// Whether a tmux of this version may draw sixel: 3.4 and later, when built with it (its DA1 says).
    static func mayDrawSixel(_ version: String?) -> Bool {
        guard let version else { return false }
        let digits = version.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 2 else { return digits.first.map { $0 > 3 } ?? false }
        return digits[0] > 3 || (digits[0] == 3 && digits[1] >= 4)
    }

    /// Which of these terminfo entries this system has (for `photopick doctor`).
    public static func installedEntries(_ names: [String]) -> Set<String> {
        Set(names.filter { !$0.isEmpty && cnc_terminal_known($0) == 1 })
    }

    /// TERM's colours and flags, and which of the entries photopick may start ncurses with are installed.
    static func terminfo(_ term: String) -> GraphicsChoice.Terminfo {
        var rgb: Int32 = 0
        let colors = term.isEmpty ? 0 : Int(cnc_terminal_colors(term, &rgb))
        let candidates = ["xterm-direct256", "xterm-direct", "tmux-direct", "xterm-256color", "\(term)-direct", "\(term)-256color"]
        let known = Set(candidates.filter { name in cnc_terminal_known(name) == 1 })
        return GraphicsChoice.Terminfo(colors: colors, rgb: rgb != 0, known: known)
    }

    /// Writes the queries and reads until DA1's reply or the deadline, in raw mode, the modes restored after.
    private func ask(_ descriptor: Int32, wrapped: Bool) -> TerminalReplies? {
        Self.inRawMode(descriptor) {
            var queries = Self.queries
            // Whether the terminal runs on this machine: a 1×1 image in shared memory, before DA1. Not through
            // tmux, whose clients may be elsewhere.
            let probeMemory = SharedMemory.name(0)
            let madeMemory = !wrapped && SharedMemory.create(probeMemory, [0, 0, 0])
            if madeMemory { queries.insert(KittyCommands.sharedMemoryQuery(name: probeMemory), at: queries.count - 1) }
            defer { if madeMemory { SharedMemory.remove(probeMemory) } }
            let batch = queries.flatMap { wrapped ? TmuxPassthrough.wrap($0) : $0 }
            return TerminalReplies.parse(exchange(descriptor, batch, deadline: deadline).received)
        }
    }

    /// Runs `body` with `descriptor` in raw mode (no echo, no signals, reads that never wait), and puts the
    /// modes back after; nil when the modes cannot be set.
    static func inRawMode<T>(_ descriptor: Int32, _ body: () -> T?) -> T? {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(descriptor, TCSANOW, &saved) }
        return body()
    }

    /// Writes `bytes`, then reads what comes back until DA1's answer is in or `deadline` has passed: every
    /// byte read, and whether DA1 answered.
    func exchange(_ descriptor: Int32, _ bytes: [UInt8], deadline: Duration) -> (received: [UInt8], answered: Bool) {
        TerminalDriver.writeAll(bytes, to: descriptor)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = clock.elapsed() + deadline
        while clock.elapsed() < end {
            let left = end - clock.elapsed()
            let milliseconds = Int32(max(1, left.milliseconds))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if TerminalReplies.parse(received).isComplete { return (received, true) }
        }
        return (received, false)
    }

    /// A tmux option's value, or nil when tmux cannot be asked.
    static func tmuxOption(_ name: String) -> String? {
        tmux(["show-options", "-gv", name])
    }

    /// What `tmux ARGUMENTS` prints, trimmed, or nil when tmux cannot be asked or fails.
    private static func tmux(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // Newlines only: an empty last field leaves a tab that counts.
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}

/// What `photopick doctor` measures of the link to the terminal, as the writer would learn it.
public struct LinkEstimate: Sendable, CustomStringConvertible {
    /// DA1's answer with nothing ahead of it.
    public let roundTrip: Duration
    /// Bytes a second the terminal read: 256 KB it ignores, then DA1.
    public let rate: Double?

    /// Whether images go reduced first, as the writer decides it.
    private var isSlow: Bool { window.isSlow }

    private var window: WireWindow {
        var window = WireWindow(roundTrip: roundTrip)
        if let rate { window.assume(rate: rate) }
        return window
    }

    /// The rate, the round trip and what they mean for images, in a line for `photopick doctor`.
    public var description: String {
        let speed = rate.map { String(format: "%.1f MB/s", $0 / 1e6) } ?? "rate not measured"
        let trip = String(format: "%.0f ms", roundTrip.timeInterval * 1000)
        let choice = isSlow ? "slow: kitty and iTerm2 images go reduced first, the whole once the cursor rests"
            : "fast: images go whole"
        return "\(speed), round trip \(trip): \(choice); image data in flight at most \(window.window >> 10) KB"
    }
}

extension TerminalProbe {
    /// Times DA1 alone, then behind 256 KB of an APC string terminals ignore: the round trip and the rate
    /// the terminal reads at. Nil when there is no terminal to ask or it did not answer within 10 s.
    public func measureLink() -> LinkEstimate? {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Self.inRawMode(descriptor) {
            func answer(after bytes: [UInt8]) -> Duration? {
                let start = clock.elapsed()
                return exchange(descriptor, bytes + Self.deviceAttributes, deadline: .seconds(10)).answered ? clock.elapsed() - start : nil
            }
            guard let trip = answer(after: []) else { return nil }
            let padding = Array("\u{1B}_photopick link test;".utf8) + Array(repeating: UInt8(ascii: "A"), count: 256 << 10) + [0x1B, UInt8(ascii: "\\")]
            let loaded = answer(after: padding)
            let rate = loaded.flatMap { $0 > trip ? Double(padding.count) / ($0 - trip).timeInterval : nil }
            return LinkEstimate(roundTrip: trip, rate: rate)
        }
    }
}
