import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI
import PhotoPickSettings

/// `_loupe`: reads a JPEG, then (unless `--baseline`) opens the loupe on it at the viewport's size and
/// pans it every way, as the app does; run as its own process so its peak RSS, less the baseline's, is
/// what the loupe adds.
struct LoupeHelper: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_loupe", shouldDisplay: false)

    @Option var file: String
    @Option var width = 1920
    @Option var height = 1080
    @Flag var baseline = false
    @Flag(help: "Encode each view for kitty too, as the app holds it while it is on screen.") var kitty = false

    func run() throws {
        // Read straight into the array: a Data copy on the way would double the baseline's peak and hide
        // what the loupe adds.
        guard let stream = fopen(file, "rb") else { throw BenchError("cannot open \(file)") }
        defer { fclose(stream) }
        fseek(stream, 0, SEEK_END)
        let length = ftell(stream)
        fseek(stream, 0, SEEK_SET)
        let bytes = try [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = fread(buffer.baseAddress, 1, length, stream)
            guard count == length else { throw BenchError("short read of \(file)") }
        }
        guard !baseline else { return print(bytes.count) }
        let viewport = PixelSize(width: width, height: height)
        var loupe = try LoupeRun.open(bytes, viewport: viewport)
        // The frame on screen, as the app keeps it until the next one replaces it.
        var shown: (any PreviewRendering)?
        for direction in [Loupe.Direction.right, .right, .down, .down, .left, .up] {
            loupe.pan(direction)
            let view = try LoupeRun.show(&loupe, bytes)
            if kitty { shown = LoupeRun.kitty.renderer(PreviewRequest(photoID: 1, box: viewport), view, []) }
            try LoupeRun.decodeAhead(&loupe, bytes)
        }
        withExtendedLifetime(shown) {}
    }
}

/// The loupe as the app drives it: decode what it asks for, then take the view's pixels.
enum LoupeRun {
    static let decoder = PreviewDecoder()

    /// kitty over SSH, whose image of a view is a PNG in base64: the most it holds.
    static var kitty: Graphics { graphics(.kitty) }

    static func graphics(_ mode: GraphicsMode) -> Graphics {
        var graphics = Graphics.symbols(.direct)
        graphics.mode = mode
        graphics.cell = PixelSize(width: 10, height: 20)
        return graphics
    }

    /// `jpeg` with an EXIF segment saying `orientation`, right after its start marker.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        // Big-endian TIFF with one IFD entry: Orientation (0x0112), a SHORT, one of it; no next IFD.
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    static func open(_ bytes: [UInt8], viewport: PixelSize) throws -> Loupe {
        let header = try decoder.decodeRegion(bytes, x: 0, y: 0, width: 1, height: 1)
        let size = header.info.orientation >= 5
            ? PixelSize(width: header.info.sourceSize.height, height: header.info.sourceSize.width) : header.info.sourceSize
        var loupe = Loupe(imageSize: size, viewport: viewport, centre: (0.5, 0.5))
        _ = try show(&loupe, bytes)
        return loupe
    }

    /// Decodes the band if the view left it, and returns the view's pixels.
    @discardableResult
    static func show(_ loupe: inout Loupe, _ bytes: [UInt8]) throws -> PreviewImage {
        if let region = loupe.regionToDecode {
            // As the loader does: the old band goes before the new one is decoded.
            loupe.releaseBand()
            let decoded = try decoder.decodeRegion(bytes, x: region.x, y: region.y, width: region.width, height: region.height)
            loupe.decoded(decoded.image, x: decoded.originX, y: decoded.originY)
        }
        guard let pixels = loupe.pixels else { throw BenchError("the loupe has no pixels after its decode") }
        return pixels
    }

    /// Decodes the band ahead, as the loader does once the view is shown.
    static func decodeAhead(_ loupe: inout Loupe, _ bytes: [UInt8]) throws {
        guard let region = loupe.bandAhead else { return }
        loupe.releaseBand()
        let decoded = try decoder.decodeRegion(bytes, x: region.x, y: region.y, width: region.width, height: region.height)
        loupe.decoded(decoded.image, x: decoded.originX, y: decoded.originY)
    }
}
