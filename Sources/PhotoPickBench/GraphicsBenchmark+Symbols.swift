import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI

/// Symbols: how a preview in cells looks (SSIM, blurred RMSE) and what it costs, beside chafa.
extension GraphicsBenchmark {
    func symbolFigures(_ web: [UInt8], file: URL) throws -> [Figure] {
        let area = Rect(x: 0, y: 0, width: 49, height: 36)
        var figures: [Figure] = []
        for (depth, colors) in [(Theme.Depth.direct, "full"), (.colors256, "256")] {
            let graphics = Graphics.symbols(depth)
            guard let box = PreviewDrawing.box(for: area, graphics: graphics) else { throw BenchError("no box for \(area)") }
            var ours: [Double] = [], theirs: [Double] = []
            var rendered: (columns: Int, rows: Int, cells: [PreviewDrawing.SeenCell]) = (0, 0, [])
            for _ in 0..<options.rounds {
                let start = ContinuousClock.now
                rendered = PreviewDrawing.symbols(try decode(web, box), box: box, graphics: graphics)
                ours.append((ContinuousClock.now - start).inSeconds * 1000)
            }
            var decodes: [Double] = []
            for _ in 0..<options.rounds {
                let start = ContinuousClock.now
                _ = try decode(web, box)
                decodes.append((ContinuousClock.now - start).inSeconds * 1000)
            }
            note("symbols: of which decoding \(String(format: "%.2f", median(decodes))) ms")
            var chafaOutput = ""
            for _ in 0..<options.rounds {
                let start = ContinuousClock.now
                chafaOutput = try capture("chafa", ["-f", "symbols", "--symbols", "block", "--colors", colors, "--size", "49x36", "--font-ratio", "1/2", "--animate", "off", file.path])
                theirs.append((ContinuousClock.now - start).inSeconds * 1000)
            }
            let chafaCells = try ANSICells.parse(chafaOutput)
            let our = try SymbolQuality.measure(rendered, source: web)
            let their = try SymbolQuality.measure(chafaCells, source: web)
            let label = depth == .direct ? "24-bit" : "256"
            note("symbols \(label): ours \(rendered.columns)×\(rendered.rows) SSIM \(our.ssim) blurred RMSE \(our.blurredRMSE); chafa \(chafaCells.columns)×\(chafaCells.rows) SSIM \(their.ssim) RMSE \(their.blurredRMSE)")
            figures += [
                Figure(name: "symbols \(label): SSIM", value: our.ssim, unit: "", reference: "chafa --colors \(colors)", referenceValue: their.ssim,
                       ratio: our.ssim / their.ssim, target: ">= chafa", met: our.ssim >= their.ssim),
            ]
            if depth == .direct {
                figures.append(Figure(name: "symbols \(label): blurred RMSE", value: our.blurredRMSE, unit: "", reference: "chafa --colors \(colors)",
                                      referenceValue: their.blurredRMSE, ratio: our.blurredRMSE / their.blurredRMSE, target: "<= chafa",
                                      met: our.blurredRMSE <= their.blurredRMSE))
            } else {
                // The half-block painter this replaced measured 0.041 here (issue 14); it is gone, so its figure stands.
                figures.append(Figure(name: "symbols \(label): blurred RMSE", value: our.blurredRMSE, unit: "", reference: "half-blocks (0.041)",
                                      referenceValue: 0.041, ratio: our.blurredRMSE / 0.041, target: "<= 0.041", met: our.blurredRMSE <= 0.041))
            }
            figures.append(Figure(name: "symbols \(label): decode+draw", value: median(ours), unit: "ms", reference: "chafa command", referenceValue: median(theirs),
                                  ratio: median(theirs) / median(ours), target: ">= 2x faster", met: median(theirs) / median(ours) >= 2))
        }
        return figures
    }
}
