import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI
import PhotoPickSettings

/// From a key press to the next photo's image bytes written, through a headless driver.
extension GraphicsBenchmark {
    @MainActor
    func keyFigures(_ web: [UInt8]) async throws -> [Figure] {
        var figures: [Figure] = []
        for mode in [GraphicsMode.kitty, .sixel] {
            let graphics = graphics(mode)
            let (width, height) = (120, 40)
            var state = RenderBenchmark.syntheticState(photos: 200)
            let store = PreviewStore(byteLimit: 512 << 20, clock: benchClock)
            var context = ViewContext(theme: Theme(depth: .direct), demo: true, now: benchClock.now(), graphics: graphics)
            context.previews = store
            let screen = Screen(context: context)
            let ui = UIState()
            let layout = screen.layout(width: width, height: height, state: state, mode: ui.mode)
            _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)), at: benchClock.now())
            let steps = 40
            note("\(mode.rawValue): rendering \(steps + 1) previews for the side pane")
            for position in 0...steps {
                _ = state.apply(.browsing(.cursorMoved(.position(position))), at: benchClock.now())
                for request in screen.frame(state, ui, width: width, height: height).wants.prefix(1) {
                    let image = try decode(web, request.box)
                    store.store(.loaded(image), rendering: graphics.renderer(request, image, web), for: request)
                }
            }
            var times: [Double] = []
            for _ in 0..<options.rounds {
                // A new terminal each round, so every step sends its image rather than placing one sent before.
                _ = state.apply(.browsing(.cursorMoved(.position(0))), at: benchClock.now())
                times += try withHeadlessDriver(width: width, height: height, graphics: mode) { driver in
                    driver.present(screen.frame(state, ui, width: width, height: height).canvas)
                    var times: [Double] = []
                    for step in 1...steps {
                        let before = driver.bytesWritten
                        let start = benchClock.elapsed()
                        _ = state.apply(.browsing(.cursorMoved(.position(step))), at: benchClock.now())
                        let frame = screen.frame(state, ui, width: width, height: height)
                        driver.present(frame.canvas)
                        times.append((benchClock.elapsed() - start).inSeconds * 1000)
                        guard frame.canvas.images.count == 1, driver.bytesWritten - before > 10_000 else {
                            throw BenchError("\(mode): a step wrote \(driver.bytesWritten - before) bytes and placed \(frame.canvas.images.count) images")
                        }
                    }
                    return times
                }
            }
            figures.append(Figure(name: "\(mode.rawValue): key to bytes written", value: median(times), unit: "ms", reference: "budget", referenceValue: 20,
                                  ratio: median(times) / 20, target: "<= 20 ms", met: median(times) <= 20))
        }
        return figures
    }
}
