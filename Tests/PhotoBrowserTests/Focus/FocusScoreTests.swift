import Foundation
import PhotoImaging
import PhotoPickKit
@testable import PhotoPickServer
import Testing
@testable import PhotoBrowser

/// The focus score on the demo library, whose bursts record which frame is sharp.
@Suite struct FocusScoreTests {
    /// The demo's bursts: consecutive photos sharing a scene, with at least one sharp frame.
    static func bursts(count: Int, seed: UInt64) -> [[PhotoRecord]] {
        var bursts: [[PhotoRecord]] = []
        // Shots: the JPEG of a RAW+JPEG pair is its RAW's scene too, and no frame of a burst.
        DemoLibraryGenerator(count: count, seed: seed, megapixels: 12).forEachShot { photo in
            if let last = bursts.last?.last, last.imageSeed == photo.imageSeed {
                bursts[bursts.count - 1].append(photo)
            } else {
                bursts.append([photo])
            }
        }
        return bursts.filter { $0.count > 1 }
    }

    /// Scores of the renditions the server would send, measured as photopick does. Rendering is
    /// half a minute of CPU: it runs on one thread of its own, never on the cooperative pool, and
    /// leaves the other core to the suites whose async tests keep time (timers, pacers).
    static func scores(_ photos: [PhotoRecord], variant: ImageVariant = .web) async -> [Int64: Double] {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var scores: [Int64: Double] = [:]
                for photo in photos {
                    scores[photo.id] = (try? ImageStore.encode(photo, variant: variant)).flatMap { FocusScore.measure($0) }
                }
                continuation.resume(returning: scores)
            }
            thread.start()
        }
    }

    /// The demo's photos as the API gives them to photopick: capture time to the millisecond, camera.
    static func photo(_ record: PhotoRecord) -> Photo {
        var photo = Photo(
            id: Int(record.id), filename: record.filename, bytes: record.bytes,
            takenAt: record.takenAt.map { Date(timeIntervalSince1970: Double($0) + Double(record.takenAtMilliseconds) / 1000) }, tagIDs: []
        )
        photo.camera = Photo.Camera(make: record.cameraMake, model: record.cameraModel)
        photo.lens = record.lens
        return photo
    }

    /// "Pick the sharpest of each stack" as `B` runs it (`sharpestFrames`, bursts found by `BurstStacks`)
    /// on the whole demo library with every burst frame measured on its `web` rendition.
    /// The first 150 photos of the demo library hold 7 bursts of 28 frames (RAW+JPEG sessions have none):
    /// the 85% bound lets one burst miss and fails on two. A score that picked at random would find one
    /// or two. Rendering the frames is most of the suite's CPU: 20 bursts took 11 s of it, a third of its
    /// wall time.
    static let libraryCount = 150

    @Test func theSharpestOfEachDemoBurstIsTheFrameRecordedSharp() async throws {
        var records: [PhotoRecord] = []
        DemoLibraryGenerator(count: Self.libraryCount, seed: 1, megapixels: 12).forEachShot { records.append($0) }
        let bursts = Self.bursts(count: Self.libraryCount, seed: 1)
        #expect(bursts.count >= 7)
        print("focus: \(bursts.count) bursts, \(bursts.map(\.count).reduce(0, +)) frames in \(Self.libraryCount) photos")
        let scores = await Self.scores(bursts.flatMap { $0 })
        var state = MarkTests.state(records.map(Self.photo))
        for (id, score) in scores { _ = state.apply(.focus(.focusMeasured(photoID: Int(id), score: score))) }
        let plan = state.sharpestFrames()
        let winners = Set(plan.winners.map { state.library[$0].id })
        var found = 0
        var misses: [String] = []
        for burst in bursts {
            guard let sharp = burst.first(where: { $0.imageDefocus == 0 && $0.imageMotion == 0 }) else {
                Issue.record("no sharp frame in \(burst.map(\.id))")
                continue
            }
            let chosen = burst.filter { winners.contains(Int($0.id)) }
            if chosen.map(\.id) == [sharp.id] {
                found += 1
            } else {
                misses.append("\(burst.map { "\($0.id):\(String(format: "%.1f", scores[$0.id] ?? -1))" }) sharp \(sharp.id), chosen \(chosen.map(\.id))")
            }
        }
        #expect(plan.bursts == bursts.count, "B sees the generator's bursts")
        #expect(found * 100 >= bursts.count * 85, "found \(found) of \(bursts.count): \(misses)")
    }

    @Test func theScoreOfOnePictureIsTheSameWithin10PercentAtEverySize() async throws {
        var photos: [PhotoRecord] = []
        DemoLibraryGenerator(count: 1, seed: 2, megapixels: 12).forEachPhoto { photos.append($0) }
        let web = await Self.scores(photos, variant: .web), fhd = await Self.scores(photos, variant: .fhd)
        let a4 = await Self.scores(photos, variant: .a4)
        for photo in photos {
            let small = try #require(web[photo.id]), large = try #require(fhd[photo.id]), largest = try #require(a4[photo.id])
            #expect(abs(large - small) <= 0.1 * small, "photo \(photo.id): web \(small), fhd \(large)")
            #expect(abs(largest - small) <= 0.1 * small, "photo \(photo.id): web \(small), a4 \(largest)")
        }
    }

    /// A frame defocused by a pixel and a half at 1,600 px: a rendition's score, taken at 256 px where
    /// that blur is a tenth of a pixel, hardly tells it from the sharp one; the loupe's, taken on the
    /// view at 100%, does.
    @Test func atFullSizeAFrameAPixelOutOfFocusScoresLowerWhereARenditionCannotTell() throws {
        let width = 1600, height = 1067
        func view(defocus: Double) throws -> (whole: PreviewImage, view: PreviewImage) {
            let pixels = try JPEGEncoder.render(SceneDesign(seed: 11, defocus: defocus / Double(width)), width: width, height: height)
            let whole = PreviewImage(width: width, height: height, pixels: pixels)
            // The loupe's view of 640 × 400 at the centre.
            var cut: [UInt8] = []
            for row in 333..<733 { cut += pixels[((row * width + 480) * 3)..<((row * width + 1120) * 3)] }
            return (whole, PreviewImage(width: 640, height: 400, pixels: cut))
        }
        let sharp = try view(defocus: 0), soft = try view(defocus: 1.5)
        let rendition = (sharp: try #require(FocusScore.measure(sharp.whole)), soft: try #require(FocusScore.measure(soft.whole)))
        let loupe = (sharp: try #require(FocusScore.measureAtFullSize(sharp.view)), soft: try #require(FocusScore.measureAtFullSize(soft.view)))
        print("focus of a frame 1.5 px out: rendition \(rendition), loupe at 100% \(loupe)")
        #expect(rendition.soft > 0.85 * rendition.sharp, "the rendition's scores: \(rendition)")
        #expect(loupe.soft < 0.7 * loupe.sharp, "the loupe's scores: \(loupe)")
    }

    @Test func nothingDecodableHasNoScore() {
        #expect(FocusScore.measure(Array("not a JPEG".utf8)) == nil)
        #expect(FocusScore.measure(PreviewImage(width: 4, height: 4, pixels: [UInt8](repeating: 9, count: 48))) == nil)
        let flat = PreviewImage(width: 64, height: 64, pixels: [UInt8](repeating: 128, count: 64 * 64 * 3))
        #expect(FocusScore.measure(flat) == 0, "no detail, no score")
        #expect(FocusScore.measureAtFullSize(flat) == 0 && FocusScore.measureAtFullSize(PreviewImage(width: 7, height: 90, pixels: [UInt8](repeating: 9, count: 7 * 90 * 3))) == nil)
    }
}
