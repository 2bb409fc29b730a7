import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI

/// What one `_scroll` run measured.
struct ScrollFigures: Codable {
    let peakMegabytes: Double
    let seconds: Double
    let failed: Int
}

/// `_scroll`: moves through the first photos one at a time, wanting each one's side-pane preview (53×15
/// cells at 120×40) from a `PreviewLoader` with a disk cache, waiting for it and drawing it; prints one JSON line.
struct ScrollHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_scroll", shouldDisplay: false)

    @Option var baseURL: String
    @Option var count: Int
    @Option var cache: String

    func run() async throws {
        let client = helperClient(baseURL)
        let ids = try await firstPhotos(count, client: client).map(\.id)
        guard ids.count == count else { throw BenchError("listed \(ids.count) photos, expected \(count)") }
        let disk = try PreviewDiskCache(library: "bench", directory: URL(fileURLWithPath: cache))
        let loader = PreviewLoader(client: client, disk: disk)
        let area = Rect(x: 0, y: 0, width: 53, height: 15), graphics = Graphics.symbols(.colors256)
        guard let box = PreviewDrawing.box(for: area, graphics: graphics) else { throw BenchError("no preview fits \(area)") }
        var failed = 0
        let clock = benchClock
        let start = clock.elapsed()
        for id in ids {
            let request = PreviewRequest(photoID: id, box: box)
            await loader.want([request])
            let deadline = clock.elapsed() + .seconds(30)
            var state = loader.store.state(for: request)
            while state == nil {
                guard clock.elapsed() < deadline else { throw BenchError("no preview of photo \(id) after 30 s") }
                try await benchClock.sleep(for: .milliseconds(1))
                state = loader.store.state(for: request)
            }
            switch state {
            case .loaded(let image)?:
                var canvas = Canvas(width: area.width, height: area.height)
                PreviewDrawing.draw(image, box: box, in: area, graphics: graphics, into: &canvas)
                guard canvas.text.contains(where: { $0 != " " && $0 != "\n" }) else { throw BenchError("the preview of photo \(id) drew no pixels") }
            case .failed(let error)?:
                failed += 1
                note("no preview of photo \(id): \(error)")
            case nil:
                break
            }
        }
        let seconds = (clock.elapsed() - start).inSeconds
        await loader.stop()
        try await client.shutdown()
        guard failed <= 5 else { throw BenchError("\(failed) of \(count) previews failed") }
        let figures = ScrollFigures(peakMegabytes: try peakResidentMegabytes(), seconds: seconds, failed: failed)
        try printJSONLine(figures)
    }

    /// This process's peak resident memory (VmHWM), in MB. Not `ru_maxrss`: a child spawned by the
    /// benchmark starts there with its parent's high-water mark (see `ChildProcess.measure`).
    private func peakResidentMegabytes() throws -> Double {
        guard let kilobytes = processStatusKilobytes("VmHWM") else { throw BenchError("no VmHWM in /proc/self/status") }
        return Double(kilobytes) / 1024
    }
}
