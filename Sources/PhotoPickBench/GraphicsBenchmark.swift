import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI

/// `graphics`: what each way of drawing a preview costs and how it looks, on the demo's photo 1 in its
/// `web` rendition, beside the reference tools in the same run:
/// - decoded pixels to bytes ready, shown in 100×50 cells of 10×20 pixels: kitty, sixel (beside
///   `img2sixel` and `chafa -f sixel`) and iTerm2, with the bytes each writes;
/// - symbols in a 49×36-cell box, rasterised with each block element's exact coverage (8×16 pixels a
///   cell) and compared with the photo scaled to the same pixels: SSIM of the luminance (structure)
///   and RMSE after a Gaussian blur of half a cell (tone), in 24-bit and 256 colours, beside
///   `chafa --symbols block` measured the same way, and the time of each;
/// - from a key press to the next photo's image bytes written, its preview cached, through a headless
///   ncurses driver, in kitty and sixel.
struct GraphicsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphics", abstract: "Preview encodings, symbol quality and key-to-image time, beside img2sixel and chafa."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Encodes of each mode per round.")
    var repeats = 20

    @Option(help: "The parts to run: encodings, symbols, palette (256-colour symbols on several photos), keys.")
    var parts: [String] = ["encodings", "symbols", "palette", "keys"]

    @Option(help: "How many of the demo's photos the 256-colour comparison with chafa looks at, from photo 1.")
    var palettePhotos = 12

    @Option(help: "A folder to write the 256-colour comparison's images to, as PPM: the photo, ours and chafa's, cell by cell.")
    var paletteImages: String?

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
    }

    func run() async throws {
        for tool in ["img2sixel", "chafa"] where !ChildProcess.isInstalled(tool) {
            throw BenchError("\(tool) is not installed; apt-get install libsixel-bin chafa")
        }
        let folder = try scratchDirectory("graphics")
        defer { try? FileManager.default.removeItem(at: folder) }
        note("starting the demo library to fetch photo 1's web rendition")
        let server = try await PhotoPickServer.start(ServerConfiguration(port: 0, dataDirectory: folder.appending(path: "demo")))
        let client = APIClient(configuration: .init(baseURL: server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), clock: benchClock))
        let web: [UInt8], fhd: [UInt8]
        var webs: [(id: Int, bytes: [UInt8])] = []
        do {
            web = try await client.fetchVariant(photoID: 1, size: .web).bytes
            fhd = try await client.fetchVariant(photoID: 1, size: .fhd).bytes
            if parts.contains("palette") {
                for id in 1...max(1, palettePhotos) { webs.append((id, try await client.fetchVariant(photoID: id, size: .web).bytes)) }
            }
        } catch {
            throw BenchError("cannot fetch the demo's photos: \(error)")
        }
        try? await client.shutdown()
        await server.stop()
        let file = folder.appending(path: "web.jpg")
        try Data(web).write(to: file)

        var figures: [Figure] = []
        if parts.contains("encodings") { figures += try encodingFigures(web, file: file, fhd: fhd) }
        if parts.contains("symbols") { figures += try symbolFigures(web, file: file) }
        if parts.contains("palette") { figures += try paletteFigures(webs, folder: folder) }
        if parts.contains("keys") { figures += try await keyFigures(web) }
        Report.print(figures, json: options.json)
    }

    // MARK: Helpers

    func decode(_ bytes: [UInt8], _ box: PixelSize) throws -> PreviewImage {
        try decodeJPEG(bytes, fitting: box, what: "photo 1")
    }

    /// A tool's standard output; its time is measured by the caller.
    func capture(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm-256color"]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("\(executable) exited with status \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
