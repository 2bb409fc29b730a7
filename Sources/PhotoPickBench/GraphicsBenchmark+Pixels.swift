import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI

/// Pixel modes: kitty, sixel and iTerm2 bytes from decoded pixels, beside img2sixel and chafa.
extension GraphicsBenchmark {
    func graphics(_ mode: GraphicsMode) -> Graphics {
        var graphics = Graphics.symbols(.direct)
        graphics.mode = mode
        graphics.cell = PixelSize(width: 10, height: 20)
        return graphics
    }

    func encodingFigures(_ web: [UInt8], file: URL) throws -> [Figure] {
        let area = Rect(x: 0, y: 0, width: 100, height: 50)
        var results: [GraphicsMode: (ms: Double, bytes: Int)] = [:]
        var size = PixelSize(width: 0, height: 0)
        for mode in [GraphicsMode.kitty, .sixel, .iterm] {
            let graphics = graphics(mode)
            guard let box = PreviewDrawing.box(for: area, graphics: graphics) else { throw BenchError("no box for \(area)") }
            let image = try decode(web, box)
            size = image.size
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<(repeats * options.rounds) {
                let start = ContinuousClock.now
                bytes = PreviewDrawing.encoded(image, source: web, box: box, graphics: graphics).count
                times.append((ContinuousClock.now - start).inSeconds * 1000)
            }
            guard bytes > 0 else { throw BenchError("\(mode) wrote nothing") }
            results[mode] = (median(times), bytes)
            note("\(mode.rawValue): \(String(format: "%.2f", median(times))) ms, \(bytes) bytes for \(image.width)×\(image.height)")
        }
        // The references take the JPEG and write sixel of the same pixel size.
        var img2sixel: [Double] = [], chafa: [Double] = []
        for _ in 0..<options.rounds {
            img2sixel.append(try toolMilliseconds("img2sixel", ["-w", "\(size.width)", "-h", "\(size.height)", "-o", "/dev/null", file.path]))
            chafa.append(try toolMilliseconds("chafa", ["-f", "sixel", "--size", "100x50", "--font-ratio", "1/2", file.path]))
        }
        let reference = median(img2sixel), chafaTime = median(chafa)
        let kitty = results[.kitty]!, sixel = results[.sixel]!, iterm = results[.iterm]!
        return [
            Figure(name: "kitty: pixels to bytes", value: kitty.ms, unit: "ms", reference: "budget", referenceValue: 10,
                   ratio: kitty.ms / 10, target: "<= 10 ms", met: kitty.ms <= 10),
            Figure(name: "kitty: bytes", value: Double(kitty.bytes) / 1024, unit: "KiB", reference: "RGB \(size)", referenceValue: Double(size.width * size.height * 3) / 1024,
                   ratio: Double(kitty.bytes) / Double(size.width * size.height * 3), target: "report", met: true),
            Figure(name: "sixel: pixels to bytes", value: sixel.ms, unit: "ms", reference: "img2sixel", referenceValue: reference,
                   ratio: sixel.ms / reference, target: "<= 0.5x img2sixel", met: sixel.ms <= 0.5 * reference),
            Figure(name: "sixel: pixels to bytes", value: sixel.ms, unit: "ms", reference: "chafa -f sixel", referenceValue: chafaTime,
                   ratio: sixel.ms / chafaTime, target: "<= chafa", met: sixel.ms <= chafaTime),
            Figure(name: "sixel: bytes", value: Double(sixel.bytes) / 1024, unit: "KiB", reference: "report", referenceValue: 0,
                   ratio: 1, target: "report", met: true),
            Figure(name: "iterm: pixels to bytes", value: iterm.ms, unit: "ms", reference: "budget", referenceValue: 10,
                   ratio: iterm.ms / 10, target: "report", met: true),
            Figure(name: "iterm: bytes", value: Double(iterm.bytes) / 1024, unit: "KiB", reference: "JPEG", referenceValue: Double(web.count) / 1024,
                   ratio: Double(iterm.bytes) / Double(web.count), target: "report", met: true),
        ]
    }
}
