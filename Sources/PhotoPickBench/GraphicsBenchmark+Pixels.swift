import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI
import PhotoPickSettings

/// Pixel modes: kitty, sixel and iTerm2 bytes from decoded pixels, beside img2sixel and chafa.
extension GraphicsBenchmark {
    func graphics(_ mode: GraphicsMode) -> Graphics {
        var graphics = Graphics.symbols(.direct)
        graphics.mode = mode
        graphics.cell = PixelSize(width: 10, height: 20)
        return graphics
    }

    func encodingFigures(_ web: [UInt8], file: URL, fhd: [UInt8]) throws -> [Figure] {
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
                let start = benchClock.elapsed()
                bytes = PreviewDrawing.encoded(image, source: web, box: box, graphics: graphics).count
                times.append((benchClock.elapsed() - start).inSeconds * 1000)
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
        return try kittyFigures(fhd: fhd, app: kitty) + [
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

    /// kitty's PNG against raw RGB, and zlib's level 1 against 6, at a full-screen box of 1,600×1,000:
    /// what each costs to make, its bytes, and both together on a 2.5 MB/s link.
    private func kittyFigures(fhd: [UInt8], app: (ms: Double, bytes: Int)) throws -> [Figure] {
        let image = try decode(fhd, PixelSize(width: 1600, height: 1000))
        let link = 2.5e6
        func measure(_ encode: () -> [UInt8]?) throws -> (ms: Double, bytes: Int) {
            var times: [Double] = []
            var count = 0
            for _ in 0..<max(3, options.rounds) {
                let start = benchClock.elapsed()
                guard let bytes = encode() else { throw BenchError("kitty: an encoding failed") }
                times.append((benchClock.elapsed() - start).inSeconds * 1000)
                count = bytes.count
            }
            return (median(times), count)
        }
        // Each as it goes on the wire: base64, made the same way for all three.
        let raw = try measure { Array(Data(image.pixels).base64EncodedData()) }
        let fast = try measure { image.withPNG(level: 1) { Array(Data(buffer: $0).base64EncodedData()) } }
        let small = try measure { image.withPNG(level: 6) { Array(Data(buffer: $0).base64EncodedData()) } }
        func onLink(_ result: (ms: Double, bytes: Int)) -> Double { result.ms + Double(result.bytes) / link * 1000 }
        note(String(format: "kitty at %@: RGB %.2f MB in %.1f ms; PNG level 1 %.2f MB in %.1f ms; level 6 %.2f MB in %.1f ms (base64)",
                    image.size.description, Double(raw.bytes) / 1e6, raw.ms, Double(fast.bytes) / 1e6, fast.ms, Double(small.bytes) / 1e6, small.ms))
        return [
            Figure(name: "kitty: preview to bytes", value: app.ms, unit: "ms", reference: "budget", referenceValue: 60,
                   ratio: app.ms / 60, target: "<= 60 ms", met: app.ms <= 60),
            Figure(name: "kitty: PNG bytes, full screen", value: Double(fast.bytes) / 1e6, unit: "MB", reference: "RGB", referenceValue: Double(raw.bytes) / 1e6,
                   ratio: Double(fast.bytes) / Double(raw.bytes), target: "report", met: true),
            Figure(name: "kitty: PNG made and sent", value: onLink(fast), unit: "ms", reference: "RGB at 2.5 MB/s", referenceValue: onLink(raw),
                   ratio: onLink(fast) / onLink(raw), target: "<= 0.7x RGB", met: onLink(fast) <= 0.7 * onLink(raw)),
            Figure(name: "kitty: level 1 made and sent", value: onLink(fast), unit: "ms", reference: "level 6 at 2.5 MB/s", referenceValue: onLink(small),
                   ratio: onLink(fast) / onLink(small), target: "<= level 6", met: onLink(fast) <= onLink(small)),
        ]
    }
}
