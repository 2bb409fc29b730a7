import Foundation
import PhotoBrowser
import PhotoImaging
import TerminalUI

/// How close cells of block symbols come to a photo, as the eye sees them: the cells rasterised at 8×16
/// pixels with each block element's exact coverage, beside the photo scaled to the same pixels.
/// Hand-written: no library here measures terminal symbols, and SSIM is a page of arithmetic.
enum SymbolQuality {
    struct Score {
        /// Mean SSIM of the luminance, Gaussian window of σ 1.5 (structure).
        let ssim: Double
        /// RMSE of RGB in 0...1 after a Gaussian blur of half a cell, σ 4×8 pixels (tone).
        let blurredRMSE: Double
        /// The median over cells of the distance between a cell's mean colour as shown and the photo's
        /// over the same pixels, as RGB in 0...255 (colour: speckle in saturated areas raises it).
        let cellColourError: Double
        /// The median over cells of each half's error, weighted by its share of the cell: the distance
        /// between the colour a half shows and the photo's over the pixels that half covers, as RGB in
        /// 0...255. A grey half and a magenta half standing for a purple cell have a small cell error and
        /// a large half error: this is what the eye sees as bands of colour the photo does not have.
        let halfColourError: Double
    }

    static let cellWidth = BlockElements.cellWidth, cellHeight = BlockElements.cellHeight

    static func measure(_ cells: (columns: Int, rows: Int, cells: [PreviewDrawing.SeenCell]), source: [UInt8]) throws -> Score {
        let width = cells.columns * cellWidth, height = cells.rows * cellHeight
        guard width > 0, height > 0, cells.cells.count == cells.columns * cells.rows else { throw BenchError("no cells to measure") }
        let shown = try rasterise(cells)
        let photo = try reference(source, width: width, height: height)
        let ssim = meanSSIM(luma(shown), luma(photo), width: width, height: height)
        var squared = 0.0
        for channel in 0..<3 {
            let a = blur(plane(shown, channel), width: width, height: height, sigmaX: 4, sigmaY: 8)
            let b = blur(plane(photo, channel), width: width, height: height, sigmaX: 4, sigmaY: 8)
            for index in a.indices { squared += (a[index] - b[index]) * (a[index] - b[index]) }
        }
        var errors: [Double] = [], halfErrors: [Double] = []
        for row in 0..<cells.rows {
            for column in 0..<cells.columns {
                var shownMean = (0.0, 0.0, 0.0), photoMean = (0.0, 0.0, 0.0)
                // The two halves: the pixels showing the cell's first colour, and the rest.
                var first: (Double, Double, Double)?, second = (0.0, 0.0, 0.0)
                var halves = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)], counts = [0, 0]
                for y in row * cellHeight..<(row + 1) * cellHeight {
                    for x in column * cellWidth..<(column + 1) * cellWidth {
                        let index = (y * width + x) * 3
                        let pixel = (shown[index], shown[index + 1], shown[index + 2])
                        shownMean = (shownMean.0 + pixel.0, shownMean.1 + pixel.1, shownMean.2 + pixel.2)
                        photoMean = (photoMean.0 + photo[index], photoMean.1 + photo[index + 1], photoMean.2 + photo[index + 2])
                        if first == nil { first = pixel }
                        let half = pixel == first! ? 0 : 1
                        if half == 1 { second = pixel }
                        halves[half] = (halves[half].0 + photo[index], halves[half].1 + photo[index + 1], halves[half].2 + photo[index + 2])
                        counts[half] += 1
                    }
                }
                let d = (shownMean.0 - photoMean.0, shownMean.1 - photoMean.1, shownMean.2 - photoMean.2)
                errors.append((d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot() * 255 / Double(cellWidth * cellHeight))
                var halfError = 0.0
                for (half, colour) in [(0, first ?? second), (1, second)] where counts[half] > 0 {
                    let n = Double(counts[half])
                    let e = (halves[half].0 / n - colour.0, halves[half].1 / n - colour.1, halves[half].2 / n - colour.2)
                    halfError += (e.0 * e.0 + e.1 * e.1 + e.2 * e.2).squareRoot() * 255 * n
                }
                halfErrors.append(halfError / Double(cellWidth * cellHeight))
            }
        }
        errors.sort()
        halfErrors.sort()
        return Score(ssim: ssim, blurredRMSE: (squared / Double(width * height * 3)).squareRoot(), cellColourError: errors[errors.count / 2],
                     halfColourError: halfErrors[halfErrors.count / 2])
    }

    /// The cells as packed RGB in 0...1.
    static func rasterise(_ cells: (columns: Int, rows: Int, cells: [PreviewDrawing.SeenCell])) throws -> [Double] {
        let width = cells.columns * cellWidth
        var pixels = [Double](repeating: 0, count: width * cells.rows * cellHeight * 3)
        for row in 0..<cells.rows {
            for column in 0..<cells.columns {
                let cell = cells.cells[row * cells.columns + column]
                let scalar = cell.character.unicodeScalars.first?.value ?? 0
                guard BlockElements.covers(scalar, x: 0, y: 0) != nil else {
                    throw BenchError("no coverage mask for \(cell.character) (U+\(String(scalar, radix: 16)))")
                }
                for y in 0..<cellHeight {
                    for x in 0..<cellWidth {
                        let color = BlockElements.covers(scalar, x: x, y: y) == true ? cell.foreground : cell.background
                        let index = ((row * cellHeight + y) * width + column * cellWidth + x) * 3
                        pixels[index] = Double(color.0) / 255
                        pixels[index + 1] = Double(color.1) / 255
                        pixels[index + 2] = Double(color.2) / 255
                    }
                }
            }
        }
        return pixels
    }

    /// The photo decoded to fit `width` × `height` and stretched bilinearly to exactly that.
    static func reference(_ source: [UInt8], width: Int, height: Int) throws -> [Double] {
        let image = try decodeJPEG(source, fitting: PixelSize(width: width * 2, height: height * 2), what: "the photo")
        var pixels = [Double](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let sy = max(0, min(Double(image.height - 1), (Double(y) + 0.5) * Double(image.height) / Double(height) - 0.5))
            let y0 = Int(sy), y1 = min(image.height - 1, y0 + 1), fy = sy - Double(y0)
            for x in 0..<width {
                let sx = max(0, min(Double(image.width - 1), (Double(x) + 0.5) * Double(image.width) / Double(width) - 0.5))
                let x0 = Int(sx), x1 = min(image.width - 1, x0 + 1), fx = sx - Double(x0)
                for channel in 0..<3 {
                    func at(_ x: Int, _ y: Int) -> Double { Double(image.pixels[(y * image.width + x) * 3 + channel]) / 255 }
                    let top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx
                    let bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx
                    pixels[(y * width + x) * 3 + channel] = top * (1 - fy) + bottom * fy
                }
            }
        }
        return pixels
    }

    static func plane(_ rgb: [Double], _ channel: Int) -> [Double] {
        stride(from: channel, to: rgb.count, by: 3).map { rgb[$0] }
    }

    static func luma(_ rgb: [Double]) -> [Double] {
        stride(from: 0, to: rgb.count, by: 3).map { (index: Int) -> Double in
            let red: Double = 0.299 * rgb[index], green: Double = 0.587 * rgb[index + 1], blue: Double = 0.114 * rgb[index + 2]
            return red + green + blue
        }
    }

    /// A separable Gaussian blur; the edges repeat the outermost pixel.
    static func blur(_ plane: [Double], width: Int, height: Int, sigmaX: Double, sigmaY: Double) -> [Double] {
        func kernel(_ sigma: Double) -> [Double] {
            let radius = Int((3 * sigma).rounded(.up))
            let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let sum = weights.reduce(0, +)
            return weights.map { $0 / sum }
        }
        let kx = kernel(sigmaX), ky = kernel(sigmaY)
        let rx = kx.count / 2, ry = ky.count / 2
        var across = [Double](repeating: 0, count: plane.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for (offset, weight) in kx.enumerated() { sum += weight * plane[y * width + min(width - 1, max(0, x + offset - rx))] }
                across[y * width + x] = sum
            }
        }
        var result = [Double](repeating: 0, count: plane.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for (offset, weight) in ky.enumerated() { sum += weight * across[min(height - 1, max(0, y + offset - ry)) * width + x] }
                result[y * width + x] = sum
            }
        }
        return result
    }

    /// Wang et al.'s SSIM with an 11-tap Gaussian window of σ 1.5, averaged over the image.
    static func meanSSIM(_ a: [Double], _ b: [Double], width: Int, height: Int) -> Double {
        let c1 = 0.01 * 0.01, c2 = 0.03 * 0.03
        func g(_ plane: [Double]) -> [Double] { blur(plane, width: width, height: height, sigmaX: 1.5, sigmaY: 1.5) }
        let ma = g(a), mb = g(b)
        let saa = g(a.map { $0 * $0 }), sbb = g(b.map { $0 * $0 }), sab = g(zip(a, b).map { $0 * $1 })
        var total = 0.0
        for index in a.indices {
            let va = saa[index] - ma[index] * ma[index], vb = sbb[index] - mb[index] * mb[index], cov = sab[index] - ma[index] * mb[index]
            total += ((2 * ma[index] * mb[index] + c1) * (2 * cov + c2)) / ((ma[index] * ma[index] + mb[index] * mb[index] + c1) * (va + vb + c2))
        }
        return total / Double(a.count)
    }
}
