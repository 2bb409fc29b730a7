import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit
import TerminalUI

/// `render`: building and diffing a full 120×40 frame after a cursor move at 100,000 photos, against
/// the rendering budget, and the bytes the ncurses driver writes per move against the changed rows'
/// share of a full frame.
struct RenderBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Frame build and diff time, and bytes written per cursor move, at --photos and at 100,000."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library.")
    var photos = 100_000

    @Option(help: "Cursor moves measured per round.")
    var moves = 2_000

    @MainActor
    func run() async throws {
        let sizes = BenchSizes(photos: photos)
        var measured: [Int: Frames] = [:]
        for size in sizes.all { measured[size] = try measure(photos: size) }
        let large = measured[sizes.large]!, small = measured[sizes.small]!
        let height = 40
        func byteFigures(_ label: String, _ bytes: (Frames) -> Bytes) -> [Figure] {
            let (big, little) = (bytes(large), bytes(small))
            let share = Double(big.fullFrame) * big.rowsChanged / Double(height)
            return [
                Figure(name: "bytes per move, \(label), at \(sizes.largeLabel)", value: big.perMove, unit: "B",
                       reference: "changed rows of full frame", referenceValue: share, ratio: big.perMove / share,
                       target: "<= 1.0 ratio", met: big.perMove <= share,
                       note: sizes.large == sizes.small ? nil : "at \(sizes.smallLabel): \(little.perMove) B"),
                .beside("rows changed, \(label)", large: big.rowsChanged, small: little.rowsChanged, sizes: sizes, unit: "rows",
                        target: Double(height)),
            ]
        }
        Report.print([
            .beside("frame build+diff median", large: large.median, small: small.median, sizes: sizes, unit: "ms", target: 2),
            .beside("frame build+diff p99", large: large.p99, small: small.p99, sizes: sizes, unit: "ms", target: 5),
        ] + byteFigures("in view", \.inView) + byteFigures("scrolling", \.scrolling), json: options.json)
    }

    /// One size's frames: build and diff times, and the driver's bytes per move.
    struct Frames {
        let median: Double
        let p99: Double
        let inView: Bytes
        let scrolling: Bytes
    }

    @MainActor
    private func measure(photos: Int) throws -> Frames {
        note("loading \(photos) synthetic photos")
        var state = Self.syntheticState(photos: photos)
        let (width, height) = (120, 40)
        let screen = Screen(context: ViewContext(theme: Theme(depth: .colors256), demo: true, now: benchClock.now()))
        let controller = Controller()
        _ = state.apply(.browsing(.viewResized(rows: screen.layout(width: width, height: height, state: state).pageItems)), at: benchClock.now())
        var frameTimes: [Double] = []
        for round in 1...options.rounds {
            note("\(photos) photos, round \(round) of \(options.rounds): \(moves) moves")
            _ = state.apply(.browsing(.cursorMoved(.position(photos / 2))), at: benchClock.now())
            var previous = Canvas(width: width, height: height)
            screen.render(state, controller.ui, into: &previous)
            for move in 0..<moves {
                _ = state.apply(.browsing(.cursorMoved(Self.motion(move))), at: benchClock.now())
                let clock = benchClock
                let elapsed = clock.measure {
                    var canvas = Canvas(width: width, height: height)
                    screen.render(state, controller.ui, into: &canvas)
                    _ = canvas.changedRows(since: previous)
                    previous = canvas
                }
                frameTimes.append(elapsed.inSeconds * 1000)
            }
        }
        let inView = try measureBytes(state: state, screen: screen, ui: controller.ui, width: width, height: height) { move in
            move / 10 % 2 == 0 ? .down : .up
        }
        let scrolling = try measureBytes(state: state, screen: screen, ui: controller.ui, width: width, height: height, motion: Self.motion)
        let sorted = frameTimes.sorted()
        return Frames(median: median(frameTimes), p99: sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))],
                      inView: inView, scrolling: scrolling)
    }

    /// Bytes the driver wrote: a full frame, and the median per move with the rows that move changed.
    struct Bytes {
        let perMove: Double
        let fullFrame: Int
        let rowsChanged: Double
    }

    /// Drives the real ncurses driver into a file: the bytes of the first, full frame, and the median
    /// bytes and changed rows of each cursor move after it.
    @MainActor
    private func measureBytes(
        state: BrowserState, screen: Screen, ui: UIState, width: Int, height: Int, motion: (Int) -> CursorMotion
    ) throws -> Bytes {
        var state = state
        return try withHeadlessDriver(width: width, height: height) { driver in
            // A blank frame first, so the start-up sequences are not counted as part of the full frame.
            driver.present(Canvas(width: width, height: height))
            var canvas = Canvas(width: width, height: height)
            screen.render(state, ui, into: &canvas)
            let before = driver.bytesWritten
            driver.present(canvas)
            let fullFrame = driver.bytesWritten - before
            var bytes: [Double] = [], rows: [Double] = []
            for move in 0..<200 {
                _ = state.apply(.browsing(.cursorMoved(motion(move))), at: benchClock.now())
                var next = Canvas(width: width, height: height)
                screen.render(state, ui, into: &next)
                rows.append(Double(next.changedRows(since: canvas).count))
                let start = driver.bytesWritten
                driver.present(next)
                bytes.append(Double(driver.bytesWritten - start))
                canvas = next
            }
            return Bytes(perMove: median(bytes), fullFrame: fullFrame, rowsChanged: median(rows))
        }
    }

    /// A loaded browser state of `photos` synthetic photos (see `photo(_:)`) and the bench's tags.
    static func syntheticState(photos: Int) -> BrowserState {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp/photopick-bench"))
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1), at: benchClock.now())
        _ = state.apply(.tags(.tagsLoaded(tags)), at: benchClock.now())
        for start in stride(from: 0, to: photos, by: 1000) {
            _ = state.apply(.catalogue(.photosArrived((start..<min(photos, start + 1000)).map(photo), nextCursor: nil)), at: benchClock.now())
        }
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: benchClock.now())), at: benchClock.now())
        return state
    }

    /// Mostly single steps down, as a held `j` makes, with a step up now and then: the list scrolls.
    static func motion(_ move: Int) -> CursorMotion {
        move % 10 == 9 ? .up : .down
    }

    static let tags = [
        PhotoPickKit.Tag(id: 1, name: "Favourite", color: "#e94b60"), PhotoPickKit.Tag(id: 2, name: "Portfolio", color: "#3b82f6"),
        PhotoPickKit.Tag(id: 3, name: "Print", color: "#22c55e"), PhotoPickKit.Tag(id: 4, name: "Family", color: nil),
    ]

    private static let names = ["東京タワー夜景", "Praha – Karlův most", "🌅 západ slunce", "서울 야경", "Večerní Vltava"]

    /// A photo with every field the side pane shows.
    static func photo(_ index: Int) -> Photo {
        let name = index % 7 == 3 ? "\(names[index % names.count]) \(index).jpg" : "R\(String(format: "%07d", index)).JPG"
        var photo = Photo(
            id: index + 1, filename: name, bytes: Int64(2_000_000 + (index * 7_919) % 6_000_000),
            takenAt: Date(timeIntervalSince1970: 1_400_000_000 + Double(index) * 3_600), tagIDs: index % 4 == 0 ? [1, 3] : index % 9 == 0 ? [2] : []
        )
        photo.width = 4000
        photo.height = 3000
        photo.mimeType = "image/jpeg"
        photo.camera = Photo.Camera(make: "FUJIFILM", model: "X-T4")
        photo.lens = "XF23mmF1.4 R"
        photo.exposure = Photo.Exposure(iso: 400, fNumber: 2.8, exposureTime: "1/250", focalLength: 23)
        return photo
    }
}
