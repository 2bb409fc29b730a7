import ArgumentParser
import Foundation
import PhotoImaging
import PhotoPickServer

/// `originals`: the loupe's first view of an original of each kind (the file's format found, its
/// picture made ready, a 1920 × 1080 region cut at the centre), beside the reference tool that decodes
/// the same file from the command line in the same run: `djpeg` for JPEG, `heif-convert` for HEIC,
/// `exiftool -b -PreviewImage` for a DNG's embedded preview, `dcraw_emu -h` (LibRaw's half-size
/// demosaic) for a DNG whose preview is too small, ImageMagick for PNG, `tiff2rgba` for TIFF, `dwebp`
/// for WebP and `avifdec` for AVIF. The tools' figures include their
/// start-up and their output, as a user running them pays; ours is in-process, as the loupe runs it.
struct OriginalsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "originals", abstract: "The loupe's first view of a JPEG, HEIC, DNG, PNG, TIFF, WebP and AVIF original, beside djpeg, heif-convert, exiftool, dcraw_emu, ImageMagick, tiff2rgba, dwebp and avifdec."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Size of the originals, in megapixels (3:2).")
    var megapixels = 24.0

    /// One contender: the file, the tool beside it and its whole command line, and the loupe's bound, or
    /// nil where the figure is the tool's (a full demosaic).
    private struct Case {
        let name: String
        let file: URL
        let tool: String
        let toolName: String
        let arguments: [String]
        let budget: Double?
    }

    func validate() throws {
        guard (1...100).contains(megapixels) else { throw ValidationError("--megapixels must be 1...100") }
    }

    func run() async throws {
        for tool in ["djpeg", "heif-convert", "exiftool", "dcraw_emu", "convert", "tiff2rgba", "dwebp", "avifdec"] where !ChildProcess.isInstalled(tool) {
            throw BenchError("\(tool) is not installed: apt-get install libjpeg-turbo-progs libheif-examples libimage-exiftool-perl libraw-bin imagemagick libtiff-tools webp libavif-bin")
        }
        let width = Int((megapixels * 1_000_000 * 1.5).squareRoot().rounded()), height = Int((Double(width) / 1.5).rounded())
        let scratch = try scratchDirectory("originals")
        defer { try? FileManager.default.removeItem(at: scratch) }
        note("making \(width)×\(height) originals of each kind, as the demo library does (the HEIC takes x265 a few seconds)")
        func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
            let url = scratch.appending(path: name)
            try Data(bytes).write(to: url)
            return url
        }
        let out = scratch.appending(path: "out").path
        let jpeg = try write("a.jpg", try DemoImage.original(kind: "jpeg", seed: 11, width: width, height: height))
        let heic = try write("a.heic", try DemoImage.original(kind: "heic", seed: 11, width: width, height: height))
        let single = try write("b.heic", try DemoImage.heicWithoutGrid(seed: 11, width: width, height: height))
        let dng = try write("a.dng", try DemoImage.original(kind: "dng", seed: 11, width: width, height: height))
        let raw = try write("b.dng", try DemoImage.original(kind: "dng", seed: 11, width: width, height: height, previewScale: 0.25))
        let png = try write("a.png", try DemoImage.original(kind: "png", seed: 11, width: width, height: height))
        let tiff = try write("a.tif", try DemoImage.original(kind: "tiff", seed: 11, width: width, height: height))
        let webp = try write("a.webp", try DemoImage.original(kind: "webp", seed: 11, width: width, height: height))
        let avif = try write("a.avif", try DemoImage.original(kind: "avif", seed: 11, width: width, height: height))
        let cases = [
            Case(name: "JPEG", file: jpeg, tool: "djpeg", toolName: "djpeg to PPM", arguments: ["-outfile", out + ".ppm", jpeg.path], budget: 150),
            Case(name: "HEIC, a grid of 512-pixel tiles as phones write it", file: heic, tool: "heif-convert", toolName: "heif-convert to Y4M",
                 arguments: ["--quiet", heic.path, out + ".y4m"], budget: 150),
            // One HEVC picture cannot be decoded in parts: its figure is said beside heif-convert's.
            Case(name: "HEIC, one picture (no grid)", file: single, tool: "heif-convert", toolName: "heif-convert to Y4M",
                 arguments: ["--quiet", single.path, out + ".y4m"], budget: nil),
            Case(name: "DNG, embedded preview", file: dng, tool: "sh", toolName: "exiftool -b -PreviewImage",
                 arguments: ["-c", "exiftool -b -PreviewImage \"$1\" > \"$2\"", "sh", dng.path, out + ".jpg"], budget: 150),
            Case(name: "DNG, 50% demosaic", file: raw, tool: "dcraw_emu", toolName: "dcraw_emu -h (half-size demosaic)", arguments: ["-h", raw.path], budget: nil),
            Case(name: "PNG", file: png, tool: "convert", toolName: "ImageMagick to PPM", arguments: [png.path, "ppm:" + out + ".ppm"], budget: 150),
            Case(name: "TIFF", file: tiff, tool: "tiff2rgba", toolName: "tiff2rgba (libtiff)", arguments: [tiff.path, out + ".tif"], budget: 150),
            Case(name: "WebP", file: webp, tool: "dwebp", toolName: "dwebp to PPM", arguments: [webp.path, "-ppm", "-o", out + ".ppm"], budget: 150),
            Case(name: "AVIF", file: avif, tool: "avifdec", toolName: "avifdec to Y4M", arguments: [avif.path, out + ".y4m"], budget: 150),
        ]
        var figures: [Figure] = []
        for item in cases {
            let bytes = try [UInt8](Data(contentsOf: item.file))
            var ours: [Double] = [], theirs: [Double] = []
            var shows = ""
            for round in 1...options.rounds {
                note("\(item.name): round \(round) of \(options.rounds)")
                let seconds = try benchClock.measure {
                    let picture = try OriginalDecoder().prepare(bytes)
                    let x = max(0, picture.size.width / 2 - 960), y = max(0, picture.size.height / 2 - 540)
                    let view = try picture.region(x: x, y: y, width: 1920, height: 1080, decoder: PreviewDecoder())
                    guard view.image.width == min(1920, picture.size.width) else { throw BenchError("\(item.name): a \(view.image.width)-pixel view") }
                    shows = picture.note ?? "original"
                }
                ours.append(Double(seconds.components.attoseconds) / 1e15 + Double(seconds.components.seconds) * 1000)
                theirs.append(try ChildProcess.measure(item.tool, item.arguments).seconds * 1000)
            }
            let value = median(ours), reference = median(theirs)
            let target = item.budget.map { "<= \(Int($0)) ms" } ?? "<= \(item.toolName)"
            figures.append(Figure(
                name: "first loupe view, \(megapixels.formatted()) MP \(item.name) (\(shows)), 1920×1080", value: value, unit: "ms",
                reference: item.toolName, referenceValue: reference, ratio: value / reference, target: target,
                met: item.budget.map { value <= $0 } ?? (value <= reference)
            ))
        }
        Report.print(figures, json: options.json)
    }
}
