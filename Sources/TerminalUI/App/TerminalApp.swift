import Foundation
import Logging
import PhotoBrowser

/// What opening a library gives the app: the session, the account's name for the header, and the
/// loader that fetches its previews.
public struct OpenedLibrary: Sendable {
    public let session: BrowserSession
    public let name: String?
    public let previews: PreviewLoader?

    public init(session: BrowserSession, name: String?, previews: PreviewLoader?) {
        self.session = session
        self.name = name
        self.previews = previews
    }
}

/// The event loop: keys, session changes, resizes and signals arrive as one stream on the main actor;
/// each is handled, and the screen is redrawn at most once per frame. The network never blocks it:
/// the session runs its work in tasks and reports back through `changes`.
@MainActor
public final class TerminalApp {
    /// Why the loop ended.
    public enum Ending: Sendable {
        case quit
        case signal(Int32)
        /// Opening the library failed; the terminal is still the app's, so the caller restores it first
        /// and then prints the error.
        case failed(any Error)
    }

    private enum Event: Sendable {
        case input
        case opened(Result<OpenedLibrary, any Error>)
        case changed
        case resized
        case signal(Int32)
        case frame
    }

    private let driver: TerminalDriver
    private var screen: Screen
    private var controller: Controller
    private let logger: Logger
    private let frameInterval: Duration = .milliseconds(16)
    private var lastFrame: ContinuousClock.Instant?
    private var frameScheduled = false
    private var continuation: AsyncStream<Event>.Continuation?
    /// The session, once the library is open.
    public private(set) var session: BrowserSession?
    /// The previews drawn in the last frame and those likely next, for the loader.
    private var previewWants: AsyncStream<[PreviewRequest]>.Continuation?
    private var lastWants: [PreviewRequest] = []
    private var openingMessage = ""

    public init(driver: TerminalDriver, screen: Screen, controller: Controller, logger: Logger) {
        self.driver = driver
        self.screen = screen
        self.controller = controller
        self.logger = logger
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
        var tasks = [
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
        defer {
            waker.stop()
            signals.stop()
            tasks.forEach { $0.cancel() }
            session?.onEvent = nil
            self.continuation = nil
            previewWants?.finish()
        }
        draw()
        for await event in events {
            switch event {
            case .input:
                let inputs = driver.readInput()
                waker.inputDrained()
                for input in inputs where handle(input) { return .quit }
            case .opened(.success(let library)):
                let session = library.session
                self.session = session
                screen.context.libraryName = library.name
                session.onEvent = { [weak self] event, _ in self?.observe(event) }
                tasks.append(Task { for await _ in session.changes { continuation.yield(.changed) } })
                if let loader = library.previews {
                    screen.context.previews = loader.store
                    let (wants, wanted) = AsyncStream.makeStream(of: [PreviewRequest].self, bufferingPolicy: .bufferingNewest(1))
                    previewWants = wanted
                    tasks.append(Task { for await _ in loader.updates { continuation.yield(.changed) } })
                    // One task hands the loader each frame's wants in order; only the newest waiting one counts.
                    tasks.append(Task { for await requests in wants { await loader.want(requests) } })
                }
                do {
                    try session.start()
                } catch {
                    return .failed(error)
                }
            case .opened(.failure(let error)): return .failed(error)
            case .changed: break
            case .resized: driver.followTerminalSize()
            case .signal(SIGINT):
                if handle(.key(.control("c"))) { return .quit }
            case .signal(let number):
                logger.info("stopping on signal \(number)")
                return .signal(number)
            case .frame:
                frameScheduled = false
            }
            requestFrame()
        }
        return .quit
    }

    /// Applies one input; returns whether the app should quit.
    private func handle(_ input: InputEvent) -> Bool {
        guard let session else {
            // Still opening: only quitting means anything.
            if case .key(let key) = input, controller.isQuitKey(key) { return true }
            return false
        }
        let layout = screen.layout(width: driver.width, height: driver.height, state: session.state, mode: controller.ui.mode)
        let outcome = controller.handle(input, state: session.state, layout: layout)
        for event in outcome.events { session.send(event) }
        if outcome.suspend {
            driver.suspend()
            draw()
        }
        return outcome.quit
    }

    private func observe(_ event: BrowserEvent) {
        let follow = controller.observe(event)
        guard !follow.isEmpty else { return }
        // After the event that caused them has been applied.
        Task { @MainActor in for event in follow { self.session?.send(event) } }
    }

    /// Draws now if the last frame is older than a frame interval, or schedules one for then.
    private func requestFrame() {
        let now = ContinuousClock.now
        if let lastFrame, now - lastFrame < frameInterval {
            guard !frameScheduled else { return }
            frameScheduled = true
            let due = lastFrame + frameInterval
            Task { [weak self] in
                try? await Task.sleep(until: due)
                self?.continuation?.yield(.frame)
            }
            return
        }
        draw()
    }

    private func draw() {
        lastFrame = .now
        var canvas = Canvas(width: driver.width, height: driver.height)
        if let session {
            let layout = screen.layout(width: driver.width, height: driver.height, state: session.state, mode: controller.ui.mode)
            for event in controller.layoutChanged(layout) { session.send(event) }
            var wants: [PreviewRequest] = []
            screen.render(session.state, controller.ui, into: &canvas, wants: &wants)
            wants += screen.prefetch(session.state, controller.ui, layout: layout)
            // Again when something shown still needs work: a failed fetch is tried again once due.
            if wants != lastWants || wants.contains(where: { screen.context.previews?.holds($0) == false }) {
                lastWants = wants
                previewWants?.yield(wants)
            }
        } else {
            screen.renderOpening(openingMessage, into: &canvas)
        }
        driver.present(canvas)
    }
}
