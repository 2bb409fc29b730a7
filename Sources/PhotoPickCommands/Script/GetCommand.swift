import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import TerminalUI

/// `photopick get [QUERY | --ids … | -]`: downloads through the browser's queue, so an interrupted get
/// resumes in the browser or the next get, and files already fetched are never fetched again.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download the photos a query matches (or --ids, or ids on standard input with -).",
        discussion: """
            Files go through the same queue as the browser's d: resumable, verified, renamed into place with the \
            capture time; a photo already downloaded there is not fetched again. Exit codes: 0 all there, 5 some \
            failed (a summary says which), 2 usage or a bad query term, 3 key refused, 4 network unreachable, \
            130 interrupted (what is left stays queued), 1 else.
            """
    )

    @OptionGroup var library: LibraryOptions

    @OptionGroup var choice: PhotoChoice

    @Option(name: .customLong("to"), help: ArgumentHelp("The folder (default: the config's download folder, as the browser's).", valueName: "dir"))
    var directory: String?

    @OptionGroup var download: DownloadOptions

    func validate() throws {
        if let directory, directory.isEmpty { throw ValidationError("--to is empty; give a folder.") }
    }

    func run() async throws {
        try await execute()
    }

    @MainActor
    private func execute() async throws {
        try await runScript("get") { () async throws(ScriptExit) in
            let standardInput = choice.readsStandardInput ? try PhotoChoice.readIDs() : nil
            try await ScriptSession.withLibrary(
                library, refresh: download.refresh ? .onStart : .manual, downloadDirectory: directory, concurrency: download.concurrency
            ) { script throws(ScriptExit) in
                try await fetchChosen(script, ids: standardInput)
            }
        }
    }

    @MainActor
    private func fetchChosen(_ script: ScriptSession, ids standardInput: [Int]?) async throws(ScriptExit) {
        let state = script.session.state
        let photoIDs = download.files(try choice.photoIDs(script, standardInput: standardInput), state: state)
        try await Self.fetch(
            script, photoIDs: photoIDs, size: download.size(default: state.downloadVariant),
            template: download.parsedTemplate, jsonl: download.jsonl, sidecar: download.sidecar != nil
        )
    }

    /// Where each photo goes: into the download folder, by the template when there is one.
    @MainActor
    static func placements(_ photoIDs: [Int], state: BrowserState, template parsed: PhotoTemplate?) -> [ScriptDownload] {
        photoIDs.map { id -> ScriptDownload in
            guard let parsed, let index = state.library.index(ofID: id) else { return ScriptDownload(photoID: id) }
            return Self.placement(of: state.listedPhoto(at: index), template: parsed)
        }
    }

    /// Downloads the photos into the session's download folder through the queue, reporting as it goes,
    /// and writes their sidecars; the exit for some failed, or interrupted. A file of ours that changed
    /// since it was downloaded is kept, named once on stderr, and its photo fetched again beside it.
    @MainActor
    static func fetch(
        _ script: ScriptSession, photoIDs: [Int], size: DownloadSize, template parsed: PhotoTemplate?, jsonl: Bool, sidecar: Bool,
        as verb: String = "get"
    ) async throws(ScriptExit) {
        let state = script.session.state
        let root = state.downloadDirectory
        let wanted = placements(photoIDs, state: state, template: parsed)
        // Finished by an earlier get or the browser into the same place: those the request finds as written
        // keep their ids (the archive); the others are queued anew under new ids.
        let already = Set(wanted.compactMap { request -> Int64? in
            guard let item = state.downloads.item(photoID: request.photoID, variant: size), item.status.isFinished,
                  item.isIn(request.directory(under: root)) else { return nil }
            return item.id
        })
        let keptBefore = state.downloads.keptFiles.count
        var report = GetReport(jsonl: jsonl, total: wanted.count, clock: script.session.clock, already: already)
        guard !wanted.isEmpty else { return report.finish(done: 0, skipped: 0, failed: []) }
        script.session.send(.downloads(.scriptDownloadRequested(wanted, variant: size, root: root)))
        let interrupted = InterruptFlag()
        let stopper = Task { @MainActor in
            let signals = SignalEvents([SIGINT, SIGTERM, SIGHUP])
            for await number in signals.signals {
                interrupted.number = number
                script.session.send(.status(.noticePosted(.info, "interrupted")))
                break
            }
            signals.stop()
        }
        // The progress line is drawn again twice a second, so its speed and time left move during a stall too.
        let ticker = Task { @MainActor [clock = script.session.clock] in
            while (try? await clock.sleep(for: .milliseconds(500))) != nil { script.session.wakeReader() }
        }
        defer {
            stopper.cancel()
            ticker.cancel()
        }
        var refused: String?
        await script.wait { state in
            if interrupted.number != nil { return true }
            // Until the finished files are checked, the items in the queue are not yet the request's answer.
            if state.downloads.fileChecksUnderWay > 0 { return false }
            if let message = state.message, message.severity == .error,
               photoIDs.contains(where: { state.downloads.item(photoID: $0, variant: size) == nil }) {
                refused = message.text
                return true
            }
            let items = photoIDs.compactMap { state.downloads.item(photoID: $0, variant: size) }
            report.update(items)
            return items.count == photoIDs.count && items.allSatisfy { $0.status.isFinished || $0.status.failure != nil }
        }
        for path in script.session.state.downloads.keptFiles.dropFirst(keptBefore) {
            FileHandle.standardError.write(Data("photopick \(verb): kept \(TerminalText.sanitized(path)): it changed since it was downloaded; fetching the photo again\n".utf8))
        }
        if let number = interrupted.number {
            let items = photoIDs.compactMap { script.session.state.downloads.item(photoID: $0, variant: size) }
            let left = items.count { !$0.status.isFinished }
            report.interrupted(left: left)
            throw ScriptExit(code: 128 + number, message: "interrupted: \(left) of \(photoIDs.count) not finished stay queued; photopick get or the browser resumes them")
        }
        if let refused { throw ScriptExit(code: 1, message: refused) }
        let items = photoIDs.compactMap { script.session.state.downloads.item(photoID: $0, variant: size) }
        report.update(items)
        let failed = items.filter { $0.status.failure != nil }
        let fetched = items.count { $0.status == .done && !already.contains($0.id) }
        let sidecars = sidecar ? try Self.writeSidecars(items, script: script, root: root) : nil
        let fetchedItems = items.filter { $0.status == .done && !already.contains($0.id) }
        let reasons = await Self.unopenable(fetchedItems.map { $0.resultPath })
        let unopenable = zip(fetchedItems, reasons).compactMap { item, reason in reason.map { (item: item, reason: $0) } }
        report.finish(
            done: fetched, skipped: items.count { $0.status.isFinished } - fetched, failed: failed, unopenable: unopenable, sidecars: sidecars
        )
        if !failed.isEmpty {
            throw ScriptExit(code: 5, message: "\(failed.count) of \(items.count) failed; run the same get again to retry them")
        }
        if !unopenable.isEmpty {
            throw ScriptExit(code: 5, message: "\(unopenable.count) of \(items.count) do\(unopenable.count == 1 ? "es" : "") not open: the server holds \(unopenable.count == 1 ? "it" : "them") damaged; kept as \(unopenable.count == 1 ? "it is" : "they are")")
        }
    }

    /// Each file just fetched, read through by its format's decoder as the loupe would read it (a JPEG
    /// at its smallest DCT scale, a RAW's sensor data unpacked, the rest decoded whole), a core each:
    /// the reason one does not open, or nil. A download's digest proves the bytes are the server's, not
    /// that they are a picture. Files of no format photopick reads (a video), and ones larger than the
    /// loupe's pixel bound, pass unchecked.
    nonisolated static func unopenable(_ paths: [String?]) async -> [String?] {
        let decoder = OriginalDecoder()
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, String?).self) { group in
            var reasons = [String?](repeating: nil, count: paths.count)
            var next = 0
            func start() {
                guard next < paths.count else { return }
                let index = next, path = paths[index]
                next += 1
                group.addTask {
                    guard let path else { return (index, nil) }
                    guard let data = FileManager.default.contents(atPath: path) else { return (index, "it cannot be read back") }
                    do throws(PreviewError) {
                        _ = try decoder.verify(Array(data))
                        return (index, nil)
                    } catch .tooLarge, .outOfMemory {
                        // Beyond what the loupe opens, not damaged: left unchecked rather than blamed.
                        return (index, nil)
                    } catch {
                        return (index, error.description)
                    }
                }
            }
            for _ in 0..<width { start() }
            for await (index, reason) in group {
                reasons[index] = reason
                start()
            }
            return reasons
        }
    }

    /// Writes each finished file's XMP sidecar where it is missing or out of date; how many were written.
    /// A sidecar photopick did not write (darktable's, the user's), or one changed since, is left as it is.
    @MainActor
    static func writeSidecars(_ items: [DownloadItem], script: ScriptSession, root: URL) throws(ScriptExit) -> Int {
        let session = script.session
        let state = session.state
        var written = 0, leftAlone: [String] = []
        do {
            let ours = Dictionary(try session.writtenFiles(under: root).map { ($0.path, $0) }) { first, _ in first }
            for item in items where item.status.isFinished {
                guard let path = item.resultPath, let index = state.library.index(ofID: item.photoID) else { continue }
                let outcome = try XMPSidecar.write(
                    for: state.listedPhoto(at: index), beside: URL(fileURLWithPath: path),
                    isOurs: { ours[$0.path]?.currentState() == .intact }, record: { try session.recordWrittenFile($0) }
                )
                switch outcome {
                case .written: written += 1
                case .leftAlone: leftAlone.append(XMPSidecar.url(for: URL(fileURLWithPath: path)).path)
                case .unchanged: break
                }
            }
        } catch {
            throw ScriptExit(code: 1, message: "\(error.localizedDescription); the files are there, the sidecars are not all written")
        }
        for path in leftAlone {
            FileHandle.standardError.write(Data("photopick get: left \(TerminalText.sanitized(path)) as it is: photopick did not write it, or it changed since\n".utf8))
        }
        return written
    }

    /// The folders and name a template gives a photo: the text split at its slashes, each folder made
    /// one safe component (so nothing lands outside the folder), the last part the file's name.
    static func placement(of photo: ListedPhoto, template: PhotoTemplate) -> ScriptDownload {
        // A field's own slashes are not folders: only the template's are.
        let path = template.render(photo) { $0.replacingOccurrences(of: "/", with: "_") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return ScriptDownload(photoID: photo.id) }
        let folders = parts.dropLast().map { SafePathComponent.make($0, fallback: "_") }
        return ScriptDownload(photoID: photo.id, folders: folders, filename: name)
    }
}

/// Set by the signal task, read by the wait: on the main actor both.
@MainActor
final class InterruptFlag {
    var number: Int32?
}
