import Foundation
import PhotoImaging
@testable import PhotoPickServer
import Testing

/// The histogram against ImageMagick's on the same decoded pixels, and the clipping overlay against
/// the histogram's ends.
struct HistogramTests {
    /// The demo's first 12 photos (the graphics benchmark's) as JPEGs of 400 pixels, the size of a side
    /// pane's preview, decoded as photopick decodes them; and the fourth again three stops over, its sky
    /// blown, so that the clipped shares are more than nothing.
    static func benchmarkPhotos() throws -> [(name: String, image: PreviewImage)] {
        var records: [PhotoRecord] = []
        DemoLibraryGenerator(count: 12, seed: 1, megapixels: 12).forEachPhoto { records.append($0) }
        func decoded(_ scene: SceneDesign, _ record: PhotoRecord) throws -> PreviewImage {
            let width = 400, height = max(1, 400 * (record.height) / max(1, record.width))
            return try PreviewDecoder().decode(try JPEGEncoder.encode(scene, width: width, height: height, quality: 90), fitting: PixelSize(width: 400, height: 400)).image
        }
        var photos = try records.map { ("photo \($0.id)", try decoded(SceneDesign($0), $0)) }
        let fourth = records[3]
        photos.append(("photo 4 three stops over", try decoded(SceneDesign(seed: fourth.imageSeed, gain: 8), fourth)))
        return photos
    }

    /// ImageMagick's `-colorspace Gray` histogram of a picture written as PPM: pixels at each level.
    static func imageMagick(_ image: PreviewImage, in folder: URL) throws -> [Int] {
        let file = folder.appending(path: "picture.ppm")
        try Data(Array("P6 \(image.width) \(image.height) 255\n".utf8) + image.pixels).write(to: file)
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["convert", file.path, "-colorspace", "Gray", "-format", "%c", "histogram:info:-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        // "   1234: (54.2257,54.2257,54.2257) #363636 gray(21.265%)": the count, then the level rounded, in hex
        // (with -depth 8 ImageMagick would round down instead).
        var bins = [Int](repeating: 0, count: 256)
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let count = Int(line[..<colon].trimmingCharacters(in: .whitespaces)),
                  let hash = line.firstIndex(of: "#"), let level = Int(line[line.index(after: hash)...].prefix(2), radix: 16) else { continue }
            bins[level] += count
        }
        return bins
    }

    /// Ours and ImageMagick's luminance for each picture, worked out on a thread of its own: 13 runs of
    /// `convert` take seconds, which must not hold a thread of the pool the suites' timers run on.
    static func compared() async throws -> [(name: String, ours: Histogram, theirs: [Int])] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[(String, Histogram, [Int])], any Error>, Never>) in
            Thread {
                continuation.resume(returning: Result {
                    let folder = FileManager.default.temporaryDirectory.appending(path: "histogram-\(UUID().uuidString)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    return try benchmarkPhotos().map { ($0.name, Histogram($0.image), try imageMagick($0.image, in: folder)) }
                })
            }.start()
        }
        return try result.get().map { (name: $0.0, ours: $0.1, theirs: $0.2) }
    }

    @Test func theLuminanceOfEachBenchmarkPhotoCountsAsImageMagicksDoes() async throws {
        let pictures: [(name: String, ours: Histogram, theirs: [Int])]
        do { pictures = try await Self.compared() } catch {
            Issue.record("ImageMagick's convert did not run (apt-get install imagemagick): \(error)")
            return
        }
        #expect(pictures.count == 13)
        var clipped = 0
        for (name, ours, theirs) in pictures {
            let differing = (0..<256).filter { ours.luminance[$0] != theirs[$0] }
            #expect(differing.isEmpty, "\(name): levels \(differing.prefix(5)) differ: ours \(differing.prefix(5).map { ours.luminance[$0] }), ImageMagick's \(differing.prefix(5).map { theirs[$0] })")
            #expect(ours.total > 0 && theirs.reduce(0, +) == ours.total)
            #expect(ours.clippedHighlights == Double(theirs[255]) / Double(ours.total) && ours.clippedShadows == Double(theirs[0]) / Double(ours.total))
            // The channels count every pixel once each.
            #expect(ours.red.reduce(0, +) == ours.total && ours.green.reduce(0, +) == ours.total && ours.blue.reduce(0, +) == ours.total)
            if theirs[255] + theirs[0] > 0 { clipped += 1 }
        }
        #expect(clipped >= 1, "the photo three stops over has clipped pixels")
        print("histogram: 13 pictures counted as ImageMagick does, \(clipped) with clipped pixels")
    }

    @Test func theClippingOverlayPaintsExactlyThePixelsAtTheEnds() throws {
        // A ramp from black to white with every level, and a colour that is bright but not white.
        var pixels: [UInt8] = []
        for level in 0..<256 { pixels += [UInt8(level), UInt8(level), UInt8(level)] }
        pixels += [255, 255, 0, 0, 0, 1, 254, 255, 255, 1, 0, 0]
        let image = PreviewImage(width: 260, height: 1, pixels: pixels)
        let histogram = Histogram(image)
        let shown = image.showingClipping()
        var red = 0, blue = 0
        for x in 0..<image.width {
            let level = Histogram.luma(Int(image[x, 0].red), Int(image[x, 0].green), Int(image[x, 0].blue))
            let pixel = shown[x, 0]
            if level == 255 {
                #expect(pixel == (255, 0, 0), "pixel \(x)")
                red += 1
            } else if level == 0 {
                #expect(pixel == (0, 0, 255), "pixel \(x)")
                blue += 1
            } else {
                #expect(pixel == image[x, 0], "pixel \(x) is left as it was")
            }
        }
        #expect(red == histogram.luminance[255] && blue == histogram.luminance[0])
        // (254, 255, 255) rounds to 255; (0, 0, 1) to 0; (1, 0, 0) to 0; pure yellow is 237.
        #expect(red == 2 && blue == 3, "red \(red), blue \(blue)")
        #expect(Histogram.luma(255, 255, 0) == 237)
    }
}
