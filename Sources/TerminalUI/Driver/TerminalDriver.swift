import CNcursesw
import Foundation
import Logging
import PhotoBrowser
import PhotoPickKit
import PhotoPickSettings

/// Why the terminal could not be used.
public struct TerminalError: Error, CustomStringConvertible {
    /// One line naming the problem and the fix.
    public let description: String
}

/// The only code that calls ncurses. It sets the terminal up, writes the cells of a canvas that changed
/// since the last frame, reads keys and mouse events without blocking, follows resizes, and puts the
/// terminal back. ncurses is not thread-safe, so everything here runs on the main actor.
@MainActor
public final class TerminalDriver {
    private(set) var width = 0
    private(set) var height = 0
    /// What the terminal can show, as ncurses reports it.
    public private(set) var depth = Theme.Depth.monochrome
    /// Bytes are counted when the driver writes to a file (benchmarks); otherwise 0.
    public var bytesWritten: Int { output.map { Int(ftell($0)) } ?? 0 }

    private var screen: OpaquePointer?
    /// The stream ncurses writes to; image bytes go to the same descriptor after it is flushed.
    var terminalOutput: UnsafeMutablePointer<FILE>?
    var output: UnsafeMutablePointer<FILE>?
    var images = ImageLayer(mode: .symbols)
    /// Palette colours below this are sent as indices; above, in a 24-bit terminal, as RGB.
    private var paletteSize: Int32 = 256
    /// The debug log gets a line per image placed.
    public var logger: Logger?
    private var previous: Canvas?
    private var pairs = ColorPairAllocator(capacity: 0)
    /// The pair each cell on screen shows, so a pair is recycled only when no cell shows it.
    private var screenPairs: [Int32] = []
    var isActive = false
    /// Reads every byte from the terminal; ncurses reads none.
    var decoder = InputDecoder()
    /// What the decoder's deadlines, the wire's pacing and the probe's waits are timed by.
    let clock: Timekeeper
    /// Replies that came after the probe gave up, for a late look at what the terminal can show.
    var lateReplies = TerminalReplies()
    /// Said once, when a late reply shows the terminal can show more than the mode in force.
    var lateAdvice: String?
    var hasGivenLateAdvice = false
    /// Input decoded before the loop asked: what the probe read.
    var pendingInput: [InputEvent] = []
    /// Writes images paced by the terminal's answers, and keeps a frame's text from landing inside one;
    /// nil when headless or drawing no pixels.
    var wire: TerminalWire?
    /// Image jobs of frames whose text has not gone out yet (the wire was busy): they follow it.
    var waiting = WireQueue()
    /// A frame's text goes after its images, not before: kitty's placeholder cells show an image only
    /// if kitty has it when they arrive (kitty 0.41 left cells written first empty), and text behind an
    /// image is never thrown away by tmux, whose output to a terminal that falls behind is discarded and
    /// redrawn from the pane, passed-through images with it, unless passthrough is still on its way.
    private var textAfterImages = false

    /// A driver that has not taken the terminal yet, timed by `clock`.
    public init(clock: Timekeeper) {
        self.clock = clock
    }

    /// What the terminal was found to show, once started: the mode previews use and the colours.
    public private(set) var graphics = Graphics.symbols(.monochrome)
    /// What the probe found, for the log.
    public private(set) var findings: TerminalProbe.Findings?
    /// Whether ncurses may scroll rows (it was started on TERM's own description, `ScrollFreeTerminfo`).
    public private(set) var canScroll = true

    /// Takes over the terminal: asks it what it shows (the mode `requested`, or the best for `auto`),
    /// then full screen, raw keys, no echo, mouse, colours when allowed. ncurses starts as the probe's
    /// `cursesTerm` when TERM says fewer colours than the terminal shows.
    public func start(colors: Bool, graphics requested: GraphicsMode = .symbols) throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(description: "the browser needs a terminal on stdin and stdout; run it in a terminal, or use `photopick serve` for the server alone")
        }
        try Self.checkCursorAddressing(term: ProcessInfo.processInfo.environment["TERM"])
        setlocale(LC_ALL, "")
        // The canvas measures names as UTF-8; under a C or POSIX locale ncursesw would garble them.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        let findings = TerminalProbe(clock: clock).run(requested: requested, environment: ProcessInfo.processInfo.environment)
        self.findings = findings
        let graphics = findings.graphics
        TerminalRescue.save()
        let stream = fdopen(STDOUT_FILENO, "w")
        terminalOutput = stream
        let input = fdopen(STDIN_FILENO, "r")
        var scrollFree: String?
        var screen = ScrollFreeTerminfo.newScreen(term: graphics.cursesTerm, also: graphics.cursesCancelled, output: stream, input: input, why: &scrollFree)
        canScroll = screen == nil
        if screen == nil, let term = graphics.cursesTerm { screen = newterm(term, stream, input) }
        if screen == nil { screen = newterm(nil, stream, input) }
        if let scrollFree { logger?.warning("ncurses may scroll rows, and images with them: \(scrollFree)") }
        guard let screen else {
            throw TerminalError(description: "ncurses cannot drive this terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "unset")); set TERM to one your system knows, such as xterm-256color")
        }
        self.screen = screen
        isActive = true
        setUp(colors: colors)
        self.graphics = graphics
        self.graphics.depth = depth
        if graphics.kittyPlaceholders, depth == .monochrome || depth == .colors8 {
            // Placeholder cells carry the image id in their colour; without colours they cannot.
            self.graphics.mode = .symbols
            self.graphics.kittyPlaceholders = false
            self.graphics.reason += "; but with no colours placeholders cannot carry image ids, so symbols"
        }
        images = ImageLayer(mode: self.graphics.placesPixels ? self.graphics.mode : .symbols, inTmux: graphics.inTmux,
                            placeholders: self.graphics.kittyPlaceholders ? depth : nil, cell: graphics.cellAssumed ? nil : graphics.cell)
        if self.graphics.placesPixels {
            let logger = logger, mode = images.mode
            textAfterImages = self.graphics.kittyPlaceholders
            // The probe's answers came after one round trip, when DA1 was answered before its deadline.
            let roundTrip = findings.replies?.isComplete == true ? findings.elapsed : nil
            wire = TerminalWire(descriptor: STDOUT_FILENO, roundTrip: roundTrip, clock: clock) { placement, stage, link in
                let reduced = placement.payload?.reduced.map { " (reduced, \($0.size), the whole to follow)" } ?? ""
                logger?.debug("\(Self.placedLine(placement, mode: mode))\(stage == .reduced ? reduced : ""), \(link.summary)")
            }
        }
        // What the probe read (keys typed meanwhile, a reply its deadline cut in two) is read first.
        pendingInput = decode(findings.replies?.received ?? [], probe: true)
        enableReports()
        followTerminalSize()
    }

    /// Refuses a terminal that cannot move the cursor before ncurses touches it: ncurses would draw a
    /// garbled screen on `dumb`, and exit on a TERM it does not know.
    nonisolated static func checkCursorAddressing(term: String?) throws(TerminalError) {
        guard let term, !term.isEmpty else {
            throw TerminalError(description: "TERM is not set, so photopick cannot tell how to draw; set it to your terminal's type, such as TERM=xterm-256color")
        }
        let shown = TerminalText.sanitized(term)
        switch cnc_terminal_addresses_cursor(term) {
        case 1: return
        case 0, -2:
            throw TerminalError(description: "TERM=\(shown) cannot move the cursor, and the browser needs a full screen; run it in a terminal such as xterm, or set TERM=xterm-256color")
        case -3:
            throw TerminalError(description: "this system has no terminfo database, so photopick cannot tell how to draw on TERM=\(shown); install ncurses-base (Debian) or ncurses-terminfo")
        default:
            throw TerminalError(description: "TERM=\(shown) is not a terminal type this system knows; set TERM to one it knows, such as xterm-256color, or install its terminfo (ncurses-term)")
        }
    }

    /// A screen that writes to a file instead of the terminal, at a fixed size: for the render
    /// benchmark, which counts the bytes a frame costs.
    /// Images are written in `graphics`' mode, with the frame's bytes.
    public func startHeadless(
        width: Int, height: Int, output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>, graphics: GraphicsMode = .symbols
    ) throws(TerminalError) {
        var why: String?
        let scrollFree = ScrollFreeTerminfo.newScreen(term: "xterm-256color", output: output, input: input, why: &why)
        canScroll = scrollFree == nil
        guard let screen = scrollFree ?? newterm("xterm-256color", output, input) else {
            throw TerminalError(description: "ncurses has no xterm-256color entry; install ncurses-term")
        }
        self.screen = screen
        self.output = output
        isActive = true
        images = ImageLayer(mode: graphics)
        setUp(colors: true)
        resize_term(Int32(height), Int32(width))
        self.width = width
        self.height = height
    }

    private func setUp(colors: Bool) {
        raw()
        noecho()
        nonl()
        // Input is read by `InputDecoder`, never by ncurses: no keypad decoding, no typeahead checks
        // (which would read stdin, and cut a frame short while keys wait).
        keypad(cnc_stdscr(), false)
        typeahead(-1)
        // Shifting characters or lines would shift text from under an image, or erase its pixels.
        idlok(cnc_stdscr(), false)
        idcok(cnc_stdscr(), false)
        curs_set(0)
        if colors && has_colors() {
            start_color()
            use_default_colors()
            let count = cnc_colors()
            depth = count >= 1 << 24 ? .direct : count >= 256 ? .colors256 : count >= 8 ? .colors8 : .monochrome
            // A direct-colour entry takes palette indices below 256 (xterm-direct256) or only below 8.
            paletteSize = depth == .direct && cnc_setaf_takes_palette() == 0 ? 8 : 256
            pairs = ColorPairAllocator(capacity: Int(cnc_color_pairs()) - 1)
        }
    }

    /// Reads the terminal's size from the kernel and resizes ncurses to it; the next frame is drawn whole.
    func followTerminalSize() {
        var rows: Int32 = 0, columns: Int32 = 0
        if cnc_terminal_size(STDOUT_FILENO, &rows, &columns) == 0 {
            resize_term(rows, columns)
        }
        width = Int(cnc_cols())
        height = Int(cnc_lines())
        repaintAll()
    }

    /// Ctrl-L: the next frame clears the terminal and draws every cell and image again, for a screen
    /// something else wrote over (a message from the system, a terminal that lost an image).
    public func repaintAll() {
        previous = nil
        clearok(cnc_stdscr(), true)
    }

    /// Writes the cells that differ from the last frame, then one refresh, then the images' bytes.
    public func present(_ canvas: Canvas) {
        guard isActive else { return }
        let window = cnc_stdscr()
        let last = previous.flatMap { $0.width == canvas.width && $0.height == canvas.height ? $0 : nil }
        if let wire {
            // Images a newer frame no longer shows are taken back before they are written; after a clear,
            // every image is placed again, so none waiting is kept.
            let keeping = last == nil ? nil : Set(canvas.images.filter { $0.payload != nil }.map { ImageLayer.Key($0) })
            var taken = wire.supersede(keeping: keeping)
            let notQueued = waiting.supersede(keeping: keeping)
            taken.notShown += notQueued.notShown.filter { !taken.notShown.contains($0) }
            taken.notSent += notQueued.notSent
            images.forget(taken)
        }
        // kitty deletes the images under the cells a clear erases, and one placed again by its id would not
        // show: after a clear (a resize, Ctrl-L) every image goes, behind the clear, and is sent again.
        let freeing = last == nil ? images.clearAll() : []
        var plan = images.plan(canvas.images, screenCleared: last == nil, height: height, progressive: wire != nil && LinkGauge.isSlow)
        if !freeing.isEmpty { plan.jobs.insert(.control(freeing), at: 0) }
        for rect in plan.repaint { repaint(rect) }
        for placement in plan.shownAgain { logger?.debug("\(Self.placedLine(placement, mode: images.mode)), already in the terminal") }
        let rows = last.map { canvas.changedRows(since: $0) } ?? Array(0..<canvas.height)
        if last == nil {
            pairs.releaseAll()
            screenPairs = Array(repeating: 0, count: canvas.width * canvas.height)
        }
        var wide = [wchar_t](repeating: 0, count: 8)
        for y in rows where y < height {
            let start = y * canvas.width
            for x in 0..<min(canvas.width, width) {
                let cell = canvas.cells[start + x]
                guard cell.width != 0, last.map({ $0.cells[start + x] != cell }) ?? true else { continue }
                var count = 0
                for scalar in cell.text.unicodeScalars where count < 6 {
                    wide[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                wide[count] = 0
                var glyph = cchar_t()
                pairs.release(screenPairs[start + x])
                let pair = pair(for: cell.style)
                screenPairs[start + x] = pair
                cnc_setcchar(&glyph, wide, attributes(cell.style.attributes), pair)
                mvwadd_wch(window, Int32(y), Int32(x), &glyph)
            }
        }
        wnoutrefresh(window)
        if let wire {
            if textAfterImages { wire.enqueue(plan.jobs) } else { waiting.append(plan.jobs, at: clock.elapsed()) }
            flushText()
        } else {
            doupdate()
            if let output { fflush(output) }
            writeImages(plan)
        }
        previous = canvas
    }

    /// Writes the frames' text if no image unit is being written, then queues their images behind it;
    /// otherwise leaves both for when the unit is out, so the main actor never waits for an image. With
    /// kitty's placeholders the frame's images were queued first, and its text waits until they are out.
    func flushText() {
        guard let wire else { return }
        let output = terminalOutput
        let write = {
            doupdate()
            if let output { fflush(output) }
        }
        let wrote = textAfterImages ? wire.ifIdle(write) : wire.ifFree(write)
        guard wrote else { return }
        wire.enqueue(waiting.jobs)
        waiting = WireQueue()
    }

    /// Asks to be told when text held back behind an image unit can go.
    public func whenWireFree(_ action: @escaping @Sendable () -> Void) {
        wire?.whenFree(action)
    }

    private func attributes(_ attributes: Style.Attributes) -> attr_t {
        var result = cnc_a_normal()
        if attributes.contains(.bold) { result |= cnc_a_bold() }
        if attributes.contains(.reverse) { result |= cnc_a_reverse() }
        if attributes.contains(.underline) { result |= cnc_a_underline() }
        if attributes.contains(.dim) { result |= cnc_a_dim() }
        return result
    }

    /// The colour pair for a style, from the allocator, defined when it is new or recycled.
    private func pair(for style: Style) -> Int32 {
        guard depth != .monochrome, style.foreground != .terminalDefault || style.background != .terminalDefault else { return 0 }
        let colors = ColorPairAllocator.Colors(foreground: number(style.foreground), background: number(style.background))
        let grant = pairs.acquire(colors)
        if grant.mustDefine { init_extended_pair(grant.pair, colors.foreground, colors.background) }
        return grant.pair
    }

    private func number(_ color: TerminalColor) -> Int32 {
        switch color {
        case .terminalDefault:
            return -1
        case .palette(let index) where depth == .direct && Int32(index) >= paletteSize:
            let (red, green, blue) = XtermPalette.rgb(index)
            return Self.packed(UInt8(red), UInt8(green), UInt8(blue))
        case .palette(let index):
            return Int32(index) < cnc_colors() ? Int32(index) : -1
        case .rgb(let red, let green, let blue):
            guard depth == .direct else { return Int32(Theme.nearest256(TagColor(red: red, green: green, blue: blue))) }
            return Self.packed(red, green, blue)
        }
    }

    /// A 24-bit colour number as direct-colour terminfo takes it; values that would read as palette
    /// indices (a dark blue below 256) get one step of green, which no eye sees.
    private static func packed(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int32 {
        let value = Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
        return value < 256 ? value | 0x100 : value
    }

    /// Ctrl-Z: restores the terminal and stops the process as the shell expects; after `fg`, the next
    /// frame takes the screen back and is drawn whole. Downloads and tag sending pause with the process.
    /// Returns why it could not stop, leaving the screen as it is, when no shell waits to take the
    /// terminal back: the kernel drops a stop for a process group with none.
    func suspend() -> String? {
        guard isActive, output == nil else { return nil }
        logger?.debug("ctrl-z: process group \(getpgrp()), session \(getsid(0)), terminal's group \(tcgetpgrp(STDIN_FILENO))")
        if let reason = JobControl.whyNoStop() { return reason }
        let stopped = clock.elapsed()
        handOver { JobControl.stop() }
        logger?.debug("continued after \(clock.elapsed() - stopped)")
        return nil
    }

    /// Gives the terminal back as it was: ends ncurses, and restores the saved terminal modes.
    public func stop() {
        guard isActive else { return }
        clearImages()
        wire?.stop()
        wire = nil
        if output == nil { disableReports() }
        isActive = false
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        if output == nil { TerminalRescue.restore() }
    }
}
