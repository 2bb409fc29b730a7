import Foundation
@testable import PhotoPickServer
import PhotoPickFormats
import Synchronization
import Testing

/// The demo library's metadata: deterministic, realistic, and as hostile as real libraries.
struct DemoLibraryTests {
    private func photos(count: Int, seed: UInt64, megapixels: Double = 12) -> [PhotoRecord] {
        var photos: [PhotoRecord] = []
        DemoLibraryGenerator(count: count, seed: seed, megapixels: megapixels).forEachPhoto { photos.append($0) }
        return photos
    }

    @Test func theSameSeedMakesTheSameLibrary() {
        #expect(photos(count: 500, seed: 3) == photos(count: 500, seed: 3))
        #expect(photos(count: 500, seed: 3) != photos(count: 500, seed: 4))
        #expect(photos(count: 500, seed: 3).map(\.id) == Array(1...500))
    }

    @Test func metadataLooksLikeARealLibrary() {
        let library = photos(count: 2000, seed: 1)
        let bodies = Set(library.compactMap(\.cameraModel))
        let lenses = Set(library.compactMap(\.lens))
        #expect(bodies.count >= 5)
        #expect(lenses.count >= 8)
        let undated = library.filter { $0.takenAt == nil }.count
        #expect(undated > 0 && undated < library.count / 10)
        let located = library.filter { $0.latitude != nil }.count
        #expect(located > library.count / 10 && located < library.count * 9 / 10)
        let years = Set(library.compactMap(\.takenAt).map { ISO8601.string(seconds: $0).prefix(4) })
        #expect(years.count >= 8, "capture dates spread over years")
        for photo in library {
            let megapixels = Double(photo.width * photo.height) / 1_000_000
            // PNG, TIFF, WebP and AVIF are exports, at most 2048 pixels long.
            let export = ["image/png", "image/tiff", "image/webp", "image/avif"].contains(photo.mimeType)
            if export { #expect(max(photo.width, photo.height) == 2048) } else { #expect(abs(megapixels - 12) < 0.2) }
            // HEIC and AVIF take about half what a JPEG of the same look does, WebP two thirds.
            let bits = ["image/heic": 0.8, "image/avif": 0.8, "image/webp": 1.0][photo.mimeType] ?? 1.6
            #expect(photo.bytes >= Int64(Double(photo.width * photo.height) * bits / 8))
            if let created = Optional(photo.createdAt), let taken = photo.takenAt { #expect(created > taken) }
        }
    }

    /// Phones' HEICs, cameras' DNGs, PNG exports and RAW+JPEG pairs, each named and typed as its kind is.
    @Test func originalsComeInEveryKindAndPairsAreOneShot() {
        let library = photos(count: 3000, seed: 1)
        var kinds: [String: Int] = [:]
        for photo in library { kinds[photo.mimeType, default: 0] += 1 }
        for kind in OriginalKind.allCases { #expect(kinds[kind.mimeType, default: 0] >= 20, "\(kind): \(kinds)") }
        #expect(kinds["image/jpeg", default: 0] > library.count / 2, "most are still JPEG: \(kinds)")
        for photo in library where photo.filename.hasSuffix(".HEIC") { #expect(photo.mimeType == "image/heic" && photo.cameraMake == "Apple") }
        for photo in library where photo.filename.hasSuffix(".DNG") { #expect(photo.mimeType == "image/x-adobe-dng") }
        // A pair: a DNG and, next, a JPEG of the same stem, time, body and size.
        var pairs = 0
        for (raw, jpeg) in zip(library, library.dropFirst()) where DemoLibraryGenerator.isPair(raw, jpeg) && raw.filename.dropLast(4) == jpeg.filename.dropLast(4) {
            pairs += 1
            #expect(jpeg.filename.hasSuffix(".JPG") && raw.takenAt == jpeg.takenAt && raw.takenAtMilliseconds == jpeg.takenAtMilliseconds)
            #expect(raw.cameraModel == jpeg.cameraModel && raw.width == jpeg.width && raw.height == jpeg.height && raw.imageSeed == jpeg.imageSeed)
        }
        #expect(pairs >= 20, "\(pairs) RAW+JPEG pairs")
    }

    /// The library without the JPEGs of RAW+JPEG pairs, which are their RAW's shot again.
    private func shots(count: Int, seed: UInt64) -> [PhotoRecord] {
        var shots: [PhotoRecord] = []
        DemoLibraryGenerator(count: count, seed: seed, megapixels: 12).forEachShot { shots.append($0) }
        return shots
    }

    @Test func burstsAreRunsOfThreeToSevenFramesATenthToASecondApartFromOneBody() {
        let library = shots(count: 2000, seed: 1)
        func millis(_ photo: PhotoRecord) -> Int64? { photo.takenAt.map { $0 * 1000 + Int64(photo.takenAtMilliseconds) } }
        // Runs of consecutive photos under 1.1 s apart, as `burst_gap` would stack them.
        var runs: [[PhotoRecord]] = []
        var run: [PhotoRecord] = []
        for photo in library {
            if let last = run.last, let before = millis(last), let now = millis(photo), now - before <= 1000 {
                run.append(photo)
            } else {
                if run.count > 1 { runs.append(run) }
                run = [photo]
            }
        }
        if run.count > 1 { runs.append(run) }
        #expect(runs.count >= 20, "\(runs.count) bursts in 2,000 photos")
        for burst in runs {
            #expect((2...7).contains(burst.count), "a burst of \(burst.count)")
            #expect(Set(burst.map(\.cameraModel)).count == 1 && Set(burst.map(\.lens)).count == 1)
            #expect(Set(burst.map(\.iso)).count == 1 && Set(burst.map(\.fNumber)).count == 1 && Set(burst.map(\.focalLength)).count == 1)
            for (earlier, later) in zip(burst, burst.dropFirst()) {
                let gap = millis(later)! - millis(earlier)!
                #expect((100...1000).contains(gap), "frames \(gap) ms apart")
            }
        }
        // Most bursts are whole: three frames or more (a burst cut by the end of a session is shorter).
        #expect(runs.filter { $0.count >= 3 }.count * 10 >= runs.count * 8)
        #expect(library.contains { $0.takenAtMilliseconds > 0 }, "capture times carry fractions of a second")
    }

    @Test func aBurstIsOneSceneWithOneSharpFrameAndTheOthersDefocusedOrShaken() {
        // A burst's frames share their scene; nothing else does, but for the JPEG of a RAW+JPEG pair,
        // which is the same shot as its RAW.
        let library = shots(count: 2000, seed: 1)
        var bursts: [[PhotoRecord]] = []
        for photo in library {
            if let last = bursts.last?.last, last.imageSeed == photo.imageSeed {
                bursts[bursts.count - 1].append(photo)
            } else {
                bursts.append([photo])
            }
        }
        bursts = bursts.filter { $0.count > 1 }
        #expect(bursts.count >= 20, "\(bursts.count) bursts")
        var sharpAt: [Int: Int] = [:]
        for burst in bursts {
            let sharp = burst.indices.filter { burst[$0].imageDefocus == 0 && burst[$0].imageMotion == 0 }
            #expect(sharp.count == 1, "one sharp frame in \(burst.map(\.id))")
            sharpAt[sharp.first ?? -1, default: 0] += 1
            for frame in burst where frame.imageDefocus > 0 || frame.imageMotion > 0 {
                #expect(frame.imageDefocus == 0 || frame.imageMotion == 0, "missed focus or shook, not both")
                #expect(frame.imageDefocus == 0 || (0.003...0.006).contains(frame.imageDefocus))
                #expect(frame.imageMotion == 0 || (0.01...0.02).contains(frame.imageMotion))
            }
            #expect(burst.allSatisfy { (0.75...1.3).contains($0.imageGain) }, "exposure varies by about a third of a stop")
            #expect(burst.allSatisfy { $0.takenAt != nil }, "every frame has its capture time, so the burst stacks: \(burst.map(\.id))")
        }
        #expect(sharpAt.keys.count >= 3 && sharpAt[0, default: 0] < bursts.count / 2, "the sharp frame is anywhere in the burst: \(sharpAt)")
        let single = library.filter { photo in !bursts.contains { $0.contains(photo) } }
        #expect(single.filter { $0.imageDefocus > 0 }.count < single.count / 10, "now and then a soft single photo")
        #expect(single.allSatisfy { $0.imageMotion == 0 && $0.imageGain == 1 && $0.imageDefocus <= 0.002 })
    }

    @Test func exposuresGoTogether() {
        for photo in photos(count: 1000, seed: 5) {
            let iso = photo.iso ?? 0
            let shutter = photo.exposureTime ?? ""
            // Bright-light exposures never pair high ISO with a slow shutter, and the aperture
            // is never wider than the lens allows.
            if iso >= 1600 { #expect(!["2", "4", "8", "15", "1/4"].contains(shutter)) }
            let lens = DemoCatalog.lenses.first { $0.name == photo.lens && $0.mount == mount(of: photo) }
            if let lens, let fNumber = photo.fNumber { #expect(fNumber >= lens.maxAperture) }
            if let lens, let focal = photo.focalLength { #expect(lens.focal.contains(focal)) }
        }
    }

    @Test func namesIncludeUnicodeAndEveryHostileKind() {
        let names = photos(count: 600, seed: 1).map(\.filename)
        #expect(names.contains { $0.contains("ř") || $0.contains("ž") || $0.contains("Ž") })
        #expect(names.contains { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3040...0x30FF).contains($0.value) } })
        #expect(names.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        for hostile in DemoCatalog.hostileNames { #expect(names.contains(hostile)) }
        #expect(names.contains { $0.contains("\u{1B}") })
        #expect(names.contains { $0.hasPrefix("../") })
        #expect(names.contains { $0.utf8.count == 300 })
        #expect(DemoCatalog.hostileNames.filter { $0.utf8.count == 300 }.count == 2)
    }

    @Test func startingTagsAreSparse() {
        let generator = DemoLibraryGenerator(count: 1000, seed: 1, megapixels: 12)
        var tagged = 0
        generator.forEachPhoto { if !generator.startingTags(for: $0).isEmpty { tagged += 1 } }
        #expect(tagged > 100 && tagged < 700)
    }

    @Test func originalsAreEncodedToExactlyTheirAdvertisedLength() throws {
        for photo in photos(count: 12, seed: 8, megapixels: 0.5) {
            let bytes = try ImageStore.encode(photo, variant: .original)
            #expect(Int64(bytes.count) == photo.bytes)
            #expect(bytes.prefix(2) == [0xFF, 0xD8])
        }
    }

    /// The suite's servers share rendered scenes (`SharedEncodings.pixels`): every variant and kind
    /// encoded from the shared pixels is the file encoded alone, byte for byte; one scene at one size is
    /// rendered once; and a scene differing in size or in any of its parameters is not taken for another.
    @Test func imagesFromSharedScenesAreTheImagesEncodedAlone() throws {
        let renders = Mutex(0)
        let shared = SharedEncodings(limit: 64 << 20) { scene, width, height in
            renders.withLock { $0 += 1 }
            return try JPEGEncoder.render(scene, width: width, height: height)
        }
        var records: [PhotoRecord] = []
        DemoLibraryGenerator(count: 3, seed: 3, megapixels: 0.1).forEachPhoto { records.append($0) }
        // The first photo as each kind: one scene, encoded seven ways from the same shared pixels.
        let sample = OriginalKind.allCases.map { DemoLibraryGenerator.recast(records[0], as: $0) } + records.dropFirst()
        for photo in sample {
            for variant in [ImageVariant.web, .original] {
                #expect(try ImageStore.encode(photo, variant: variant, render: shared.pixels) == ImageStore.encode(photo, variant: variant))
            }
        }
        // Under 1,024 pixels long, the `web` rendition is the original's size: a render for each scene.
        struct Rendered: Hashable { let scene: SceneDesign, width: Int, height: Int }
        let distinct = Set(sample.map { Rendered(scene: SceneDesign($0), width: $0.width, height: $0.height) }).count
        #expect(distinct >= 2 && renders.withLock { $0 } == distinct, "one render for each scene and size")
        // A photo larger than `web`: its rendition and its original are two sizes of one scene.
        var large = records[1]
        (large.width, large.height) = (1400, 933)
        for variant in [ImageVariant.web, .original] {
            #expect(try ImageStore.encode(large, variant: variant, render: shared.pixels) == ImageStore.encode(large, variant: variant))
        }
        #expect(renders.withLock { $0 } == distinct + 2, "two sizes are two renders")
        var changed: [PhotoRecord] = []
        for change in [{ $0.imageDefocus += 0.01 }, { $0.imageMotion += 0.01 }, { $0.imageGain *= 1.2 }, { $0.iso = ($0.iso ?? 100) * 4 },
                       { $0.imageSeed += 1 }] as [(inout PhotoRecord) -> Void] {
            var photo = records[0]
            change(&photo)
            #expect(SceneDesign(photo) != SceneDesign(records[0]))
            changed.append(photo)
        }
        for photo in changed {
            #expect(try ImageStore.encode(photo, variant: .web, render: shared.pixels) == ImageStore.encode(photo, variant: .web))
        }
        #expect(renders.withLock { $0 } == distinct + 7, "each changed scene is rendered anew")
    }

    private func mount(of photo: PhotoRecord) -> String? {
        DemoCatalog.bodies.first { $0.model == photo.cameraModel }?.mount
    }
}
