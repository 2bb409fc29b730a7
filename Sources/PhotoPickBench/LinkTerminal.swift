import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `photopick` in a pty whose terminal is at the far end of a link: it reads at the link's
/// rate, answers queries a round trip after reading them, and gets keys half a round trip after they
/// are pressed. It notes when each byte came, and which were text and which were images.
final class LinkTerminal: @unchecked Sendable {
    // @unchecked: everything mutable is guarded by `lock`; the reader thread and the answers' timers
    // share it with the benchmark.
    struct Link: CustomStringConvertible {
        let rate: Double
        let roundTrip: Duration
        var description: String { String(format: "%.1f MB/s, %.0f ms", rate / 1e6, roundTrip.inSeconds * 1000) }
    }

    enum Mark { case text, image }

    let link: Link
    let pid: pid_t
    private let master: Int32
    private let lock = NSLock()
    private var bytes = 0
    private var lastByte = benchClock.elapsed()
    private var marks: [(Duration, Mark)] = []
    private var parser = StreamParser()
    private var answeredProbe = false

    /// What a terminal that shows everything answers to the probe: no version, kitty's OK, sixel's
    /// registers and size, cells of 10×20 pixels, DA1 with sixel; and whether it could read the shared
    /// memory query: only a terminal on this machine can.
    private var probeAnswers: [UInt8] {
        let shared = local ? "\u{1B}_Gi=32;OK\u{1B}\\" : "\u{1B}_Gi=32;ENOENT:Failed to open shared memory\u{1B}\\"
        return Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?1;0;256S\u{1B}[?2;0;1600;1000S\u{1B}[6;20;10t\(shared)\u{1B}[?62;4;22c".utf8)
    }
    /// A terminal on this machine, which reads kitty's shared memory.
    private let local: Bool
    private static let deviceAttributes = Array("\u{1B}[?62;4;22c".utf8)

    init(binary: String, arguments: [String], environment: [String: String], columns: Int, rows: Int, link: Link, local: Bool = false) throws {
        self.link = link
        self.local = local
        // posix_openpt and ptsname need feature macros Swift's Glibc module does not set: the Linux ioctls
        // they wrap (TIOCSPTLCK, TIOCGPTN), with their numbers, since _IOW does not import.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var locked: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &locked) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw BenchError("cannot make a pty: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        self.master = master
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * 10), ws_ypixel: UInt16(rows * 20))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc): a session of its own, so opening the pty makes it the controlling terminal.
        posix_spawnattr_setflags(&attributes, 0x80)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var pid: pid_t = 0
        let status = withCArguments([binary] + arguments, environment) { argv, envp in posix_spawn(&pid, binary, &actions, &attributes, argv, envp) }
        guard status == 0 else { throw BenchError("cannot run \(binary): \(String(cString: strerror(status)))") }
        self.pid = pid
        let thread = Thread { [self] in read() }
        thread.start()
    }

    /// Presses keys: they reach photopick half a round trip later. Returns when they were pressed.
    @discardableResult
    func press(_ keys: String) -> Duration {
        let pressed = benchClock.elapsed()
        write(Array(keys.utf8), after: link.roundTrip / 2)
        return pressed
    }

    /// Waits until no byte has come for `quiet`, or `limit` passed; returns when the last byte came.
    func waitQuiet(_ quiet: Duration, limit: Duration = .seconds(60)) -> Duration {
        let deadline = benchClock.elapsed() + limit
        while benchClock.elapsed() < deadline {
            let last = state { $0.lastByte }
            if benchClock.elapsed() - last >= quiet { return last }
            usleep(20_000)
        }
        return state { $0.lastByte }
    }

    /// Waits for the first mark of `kind` after `instant`, at most `limit`.
    func waitFor(_ kind: Mark, after instant: Duration, limit: Duration = .seconds(60)) -> Duration? {
        let deadline = benchClock.elapsed() + limit
        while benchClock.elapsed() < deadline {
            if let found = first(kind, after: instant) { return found }
            usleep(10_000)
        }
        return nil
    }

    func first(_ kind: Mark, after instant: Duration) -> Duration? {
        state { terminal in terminal.marks.first { $0.0 > instant && $0.1 == kind }?.0 }
    }

    var bytesRead: Int { state { $0.bytes } }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(50_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    private func state<T>(_ body: (LinkTerminal) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(self)
    }

    private func write(_ bytes: [UInt8], after delay: Duration) {
        let master = master
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.inSeconds) {
            bytes.withUnsafeBufferPointer { _ = Glibc.write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Reads at the link's rate, as the far terminal would take the bytes in.
    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            let now = benchClock.elapsed()
            lock.lock()
            bytes += count
            lastByte = now
            let found = parser.feed(buffer[0..<count])
            for mark in found.marks { marks.append((now, mark)) }
            // As kitty does: a shared memory object read is removed.
            for name in found.shared { shm_unlink(name) }
            var answers: [[UInt8]] = []
            for _ in 0..<found.queries {
                answers.append(answeredProbe ? Self.deviceAttributes : probeAnswers)
                answeredProbe = true
            }
            lock.unlock()
            for answer in answers { write(answer, after: link.roundTrip) }
            usleep(UInt32(Double(count) / link.rate * 1e6))
        }
    }
}

/// Splits the terminal's stream into text and image commands, and finds the DA1 queries.
struct StreamParser {
    private enum State { case ground, escape, csi, string, stringEscape }
    private var state = State.ground
    private var csi: [UInt8] = []
    private var stringKind: UInt8 = 0
    private var stringHead: [UInt8] = []

    /// Marks found in `bytes` (a text byte once per call; an image when a kitty placement, a sixel image
    /// or an iTerm2 image ends) and how many DA1 queries.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> (marks: [LinkTerminal.Mark], queries: Int, shared: [String]) {
        var marks: [LinkTerminal.Mark] = []
        var shared: [String] = []
        var queries = 0
        var sawText = false
        for byte in bytes {
            switch state {
            case .ground:
                if byte == 0x1B {
                    state = .escape
                } else if byte >= 0x20 && byte != 0x7F && !sawText {
                    sawText = true
                    marks.append(.text)
                }
            case .escape:
                switch byte {
                case UInt8(ascii: "["):
                    state = .csi
                    csi = []
                case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"):
                    state = .string
                    stringKind = byte
                    stringHead = []
                default:
                    state = .ground
                }
            case .csi:
                if byte >= 0x40 && byte <= 0x7E {
                    if byte == UInt8(ascii: "c") && (csi.isEmpty || csi == [UInt8(ascii: "0")]) { queries += 1 }
                    state = .ground
                } else {
                    csi.append(byte)
                }
            case .string:
                if byte == 0x1B {
                    state = .stringEscape
                } else if byte == 0x07 {
                    if let mark = endString() { marks.append(mark) }
                    if let name = sharedName() { shared.append(name) }
                    state = .ground
                } else if stringHead.count < 256 {
                    stringHead.append(byte)
                }
            case .stringEscape:
                if byte == UInt8(ascii: "\\") {
                    if let mark = endString() { marks.append(mark) }
                    if let name = sharedName() { shared.append(name) }
                    state = .ground
                } else {
                    state = .string
                }
            }
        }
        return (marks, queries, shared)
    }

    /// The shared memory object a kitty command names (`t=s`), if it names one.
    private func sharedName() -> String? {
        let head = String(decoding: stringHead, as: UTF8.self)
        guard stringKind == UInt8(ascii: "_"), head.hasPrefix("G"), head.contains("t=s"), let separator = head.firstIndex(of: ";"),
              let data = Data(base64Encoded: String(head[head.index(after: separator)...])) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func endString() -> LinkTerminal.Mark? {
        let head = String(decoding: stringHead, as: UTF8.self)
        switch stringKind {
        case UInt8(ascii: "_"): return head.hasPrefix("Ga=p") || head.contains("U=1") && head.contains("m=0") ? .image : nil
        case UInt8(ascii: "P"): return head.contains("q") ? .image : nil
        case UInt8(ascii: "]"): return head.hasPrefix("1337;File=") ? .image : nil
        default: return nil
        }
    }
}
