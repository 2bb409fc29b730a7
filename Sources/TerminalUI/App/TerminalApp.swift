import Foundation
import Logging
import PhotoBrowser
import PhotoPickKit
import PhotoPreviews

/// The event loop: keys, session changes, resizes and signals arrive as one stream on the main actor.
/// Each frame goes one way: events change the state; the layout is computed once; the views draw into a
/// canvas; the driver writes it. Drawing changes no state. The network never blocks the loop: the session
/// runs its work in tasks and reports back through `changes`.
@MainActor
public final class TerminalApp {
    /// Why the loop ended.
    public enum Ending: Sendable {
        /// The user quit.
        case quit
        /// A signal asked photopick to stop.
        case signal(Int32)
        /// Opening the library failed; the terminal is still the app's, so the caller restores it first
        /// and then prints the error.
        case failed(any Error)
    }

    private enum Event: Sendable {
        case input
        /// The input decoder's deadline passed: a lone Esc is the Escape key now.
        case inputDeadline
        case opened(Result<OpenedLibrary, any Error>)
        /// The server answered about a library opened before it did.
        case confirmed(Result<OpenedLibrary.Confirmation, any Error>)
        case changed
        /// Text held back behind an image unit can go now.
        case wireFree
        case resized
        case signal(Int32)
        case frame
    }

    private let driver: TerminalDriver
    private var screen: Screen
    private var controller: Controller
    private let logger: Logger
    /// What frames, deadlines and the views' "now" are timed by.
    private let clock: Timekeeper
    private var frames = FrameClock()
    private var continuation: AsyncStream<Event>.Continuation?
    /// The session, once the library is open.
    public private(set) var session: BrowserSession?
    private var layouts = LayoutMemo()
    /// The layout of the frame on screen: what the user sees, and so what a click points at.
    private var shownLayout: ScreenLayout?
    /// The page size the session was last told.
    private var pageItems: Int?
    private var previews: PreviewFeed?
    private var loupes: LoupeFeed?
    /// The loupe view last drawn of each photo, so each new one is logged once.
    private var loggedLoupes: [Int: Int] = [:]
    /// The tasks that feed the event stream; cancelled when the loop ends.
    private var tasks: [Task<Void, Never>] = []
    /// The tasks that follow the session and its loaders; cancelled when another library replaces it.
    private var sessionTasks: [Task<Void, Never>] = []
    private var openingMessage = ""
    /// A late reply's advice that came before the session could show it.
    private var lateAdvice: String?

    /// An app that draws with `screen` through `driver`, takes input through `controller`, and times its
    /// frames by `clock`.
    public init(driver: TerminalDriver, screen: Screen, controller: Controller, logger: Logger, clock: Timekeeper) {
        self.clock = clock
        self.driver = driver
        self.screen = screen
        self.controller = controller
        self.logger = logger
        // What the user could change for better graphics (a line for ~/.tmux.conf), said once the library is open.
        lateAdvice = driver.graphics.advice
    }

    /// Shows `message` while `open` connects, then starts the session it returns and runs until the
    /// user quits or a signal asks to stop. Signals and keys are handled from the first moment, so even
    /// a hung connection can be left with Ctrl-C. The session is left running; the caller stops it,
    /// then the driver.
    public func run(opening message: String, _ open: @escaping @MainActor () async throws -> OpenedLibrary) async -> Ending {
        openingMessage = message
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        self.continuation = continuation
        let waker = InputWaker()
        let signals = SignalEvents([SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT])
        tasks = [
            Task { for await _ in waker.ready { continuation.yield(.input) } },
            Task { [numbers = signals.signals] in
                for await number in numbers { continuation.yield(number == SIGWINCH ? .resized : .signal(number)) }
            },
            Task { @MainActor in
                do {
                    continuation.yield(.opened(.success(try await open())))
                } catch {
                    continuation.yield(.opened(.failure(error)))
                }
            },
        ]
        waker.start()
        // A frame whose text waited behind an image unit goes once the unit is out.
        driver.whenWireFree { continuation.yield(.wireFree) }
        // Keys typed while the probe waited.
        continuation.yield(.input)
        defer {
            waker.stop()
            signals.stop()
            tasks.forEach { $0.cancel() }
            unfollowLibrary()
            self.continuation = nil
        }
        drawFrame()
        for await event in events {
            if let ending = apply(event, waker: waker) { return ending }
            tellPageSize()
            if case .frame = event { frames.frameFired() }
            if frames.shouldDraw(at: clock.elapsed(), scheduling: scheduleFrame) { drawFrame() }
        }
        return .quit
    }

    /// Changes state for one event; returns how the loop ends, if it does.
    private func apply(_ event: Event, waker: InputWaker) -> Ending? {
        switch event {
        case .input:
            let inputs = driver.readInput()
            waker.inputDrained()
            if let ending = handle(inputs) { return ending }
        case .inputDeadline:
            if let ending = handle(driver.expireInput()) { return ending }
        case .opened(.success(let library)): return start(library)
        case .opened(.failure(let error)): return .failed(error)
        case .confirmed(.success(.confirmed(let name))):
            if let name { screen.context.libraryName = name }
        case .confirmed(.success(.replaced(let library))): return replace(with: library)
        case .confirmed(.failure(let error)): return .failed(error)
        case .changed, .frame: break
        case .wireFree: driver.flushText()
        case .resized: driver.followTerminalSize()
        case .signal(SIGINT): if handle(.key(.control("c"))) { return .quit }
        case .signal(let number):
            logger.info("stopping on signal \(number)")
            return .signal(number)
        }
        return nil
    }

    /// Applies decoded inputs; asks to be woken when the decoder waits on time (a lone Esc), and passes
    /// on what a late reply from the terminal says.
    private func handle(_ inputs: [InputEvent]) -> Ending? {
        for input in inputs.flatMap(controller.inputs(for:)) where handle(input) { return .quit }
        if let advice = driver.takeLateAdvice() {
            lateAdvice = advice
        }
        if let session, let advice = lateAdvice {
            session.send(.status(.noticePosted(.info, advice)))
            lateAdvice = nil
        }
        if let due = driver.inputDeadline {
            Task { [weak self, clock] in
                guard (try? await clock.sleep(until: due)) != nil else { return }
                self?.continuation?.yield(.inputDeadline)
            }
        }
        return nil
    }

    /// The library is open: follow its session and previews, and start it.
    private func start(_ library: OpenedLibrary) -> Ending? {
        guard let continuation else { return .quit }
        session = library.session
        screen.context.libraryName = library.name
        sessionTasks.append(Task { for await _ in library.session.changes { continuation.yield(.changed) } })
        if let loader = library.previews {
            screen.context.previews = loader.store
            let feed = PreviewFeed(loader: loader)
            previews = feed
            library.session.measureFocus(with: loader)
            sessionTasks += feed.tasks(onUpdate: { continuation.yield(.changed) })
        }
        if let loader = library.loupes {
            screen.context.loupes = loader.store
            library.session.measureFocus(with: loader)
            let feed = LoupeFeed(loader: loader)
            loupes = feed
            sessionTasks += feed.tasks(onUpdate: { continuation.yield(.changed) })
        }
        do {
            try library.session.start()
            if let lateAdvice { library.session.send(.status(.noticePosted(.info, lateAdvice))) }
            lateAdvice = nil
        } catch {
            return .failed(error)
        }
        if let confirmation = library.confirmation {
            sessionTasks.append(Task { @MainActor in
                do {
                    continuation.yield(.confirmed(.success(try await confirmation())))
                } catch {
                    continuation.yield(.confirmed(.failure(error)))
                }
            })
        }
        return nil
    }

    /// The key turned out to be another account's: its library takes the place of the one shown, from
    /// a fresh screen (the old one's modes and marks named photos of the other library).
    private func replace(with library: OpenedLibrary) -> Ending? {
        unfollowLibrary()
        screen.context.previews = nil
        screen.context.loupes = nil
        if let old = session { Task { await old.stop() } }
        session = nil
        pageItems = nil
        shownLayout = nil
        loggedLoupes = [:]
        controller = Controller(keymap: controller.keymap)
        return start(library)
    }

    /// Stops following the library's session and loaders, when the loop ends or another library takes
    /// its place: their tasks end and the feeds finish. The session itself is stopped by its owner.
    private func unfollowLibrary() {
        sessionTasks.forEach { $0.cancel() }
        sessionTasks = []
        previews?.finish()
        loupes?.finish()
        previews = nil
        loupes = nil
    }

    /// Asks for a frame event when the next frame is due.
    private func scheduleFrame(at due: Duration) {
        Task { [weak self, clock] in
            guard (try? await clock.sleep(until: due)) != nil else { return }
            self?.continuation?.yield(.frame)
        }
    }

    /// Applies one input; returns whether the app should quit.
    private func handle(_ input: InputEvent) -> Bool {
        guard let session else {
            // Still opening: only quitting means anything.
            if case .key(let key) = input, controller.isQuitKey(key) { return true }
            return false
        }
        // A click points at what is on screen; a key acts on the layout its mode has now, which a key
        // handled just before (Tab) may have changed since the last frame.
        let layout = if case .mouse = input, let shownLayout { shownLayout } else { nextLayout(session.state) }
        let outcome = controller.handle(input, state: session.state, layout: layout, loupe: screen.loupeGeometry(session.state, controller.ui, layout: layout))
        for event in outcome.events { session.send(event) }
        // The next key of the same batch may page through what this one changed (Tab, then Ctrl-D).
        tellPageSize()
        if outcome.repaint { driver.repaintAll() }
        if let text = outcome.clipboard { copy(text, session: session) }
        if let file = outcome.finishedBulkEdit { try? FileManager.default.removeItem(at: file) }
        if let photoIDs = outcome.bulkEdit { bulkEdit(photoIDs, session: session) }
        if outcome.suspend {
            if let reason = driver.suspend() {
                session.send(.status(.noticePosted(.warning, reason)))
            } else {
                tellPageSize()
                drawFrame()
            }
        }
        return outcome.quit
    }

    /// Copies to the terminal's clipboard, or says why it cannot and how to let it.
    private func copy(_ text: String, session: BrowserSession) {
        // Chosen at each copy: a user told how to let tmux copy need not restart photopick.
        let clipboard = Clipboard.choose(environment: ProcessInfo.processInfo.environment, tmuxOption: TerminalProbe.tmuxOption)
        guard let bytes = clipboard.sequence(text) else {
            if case .refused(let advice) = clipboard.route { session.send(.status(.noticePosted(.warning, "Not copied: \(advice)."))) }
            return
        }
        driver.writeClipboard(bytes)
        let shown = TerminalText.sanitized(text.count > 60 ? String(text.prefix(57)) + "…" : text)
        session.send(.status(.noticePosted(.info, "Copied “\(shown)” to the clipboard" + (clipboard.caveat.map { "; \($0)." } ?? "."))))
    }

    /// Ctrl-E: the photos' names and titles in the user's editor, with the terminal; the changes are
    /// then shown to confirm, or why nothing is applied.
    private func bulkEdit(_ photoIDs: [Int], session: BrowserSession) {
        let editor = ExternalEditor(folder: session.stateDirectory.appending(path: "edits", directoryHint: .isDirectory), clock: clock)
        let entries = session.state.bulkEditEntries(photoIDs)
        let outcome = driver.handOver { editor.edit(entries) }
        switch outcome {
        case .unchanged: session.send(.status(.noticePosted(.info, "Nothing changed in the editor.")))
        case .failed(let reason): session.send(.status(.noticePosted(.error, "Not applied: \(reason).")))
        case .changes(let changes, let file):
            controller.ask(UIState.Prompt(.applyBulkEdit(changes.flatMap(\.fieldChanges), summary: BulkEditFile.summary(changes), file: file)))
        }
        tellPageSize()
        drawFrame()
    }

    /// The layout for the next frame, computed only when its inputs changed.
    private func nextLayout(_ state: BrowserState) -> ScreenLayout {
        layouts.layout(width: driver.width, height: driver.height, state: state, mode: controller.ui.mode, screen: screen)
    }

    /// Tells the session how many photos a page holds when a resize, a mode or the queue strip changed it;
    /// part of handling the event, before the frame is drawn.
    private func tellPageSize() {
        guard let session else { return }
        let items = nextLayout(session.state).pageItems
        guard items != pageItems else { return }
        pageItems = items
        session.send(.browsing(.viewResized(rows: items)))
    }

    /// Draws one frame and hands the loader the previews it wants.
    private func drawFrame() {
        frames.frameDrawn(at: clock.elapsed())
        screen.context.now = clock.now()
        guard let session else {
            var canvas = Canvas(width: driver.width, height: driver.height)
            OpeningView(context: screen.context, message: openingMessage).draw(in: &canvas)
            return driver.present(canvas)
        }
        let frame = screen.frame(session.state, controller.ui, layout: nextLayout(session.state))
        driver.present(frame.canvas)
        shownLayout = frame.layout
        previews?.want(frame.wants, shown: frame.shownWants)
        loupes?.want(frame.loupeWants)
        logLoupes(frame.loupeWants)
    }

    /// Says which part of which picture each loupe view drawn shows, once per view: for the log, and the
    /// end-to-end checks that compare the screen with the original.
    private func logLoupes(_ wants: [LoupeRequest]) {
        guard let store = screen.context.loupes else { return }
        var drawn: [Int: Int] = [:]
        for want in wants {
            guard let frame = store.frame(photoID: want.photo.id), frame.request.box == want.box else { continue }
            drawn[want.photo.id] = frame.content
            guard loggedLoupes[want.photo.id] != frame.content else { continue }
            let view = frame.view
            logger.debug("loupe view: photo \(want.photo.id), \(frame.source.name), at \(view.x),\(view.y), pixels \(view.width)×\(view.height) of \(frame.imageSize)")
        }
        loggedLoupes = drawn
    }
}
