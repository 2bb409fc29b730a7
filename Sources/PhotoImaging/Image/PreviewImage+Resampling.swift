extension PreviewImage {
    /// `width` × `height` pixels sampled bilinearly from this image, where output pixel (0, 0) sits at
    /// (`x`, `y`) in this image's pixels and each output pixel is `step` of them: a stand-in rendition
    /// enlarged to the original's scale.
    func resampled(width: Int, height: Int, x: Double, y: Double, stepX: Double, stepY: Double) -> PreviewImage {
        var output = [UInt8](repeating: 0, count: width * height * 3)
        let sourceWidth = self.width, sourceHeight = self.height
        // Per column, the two source columns and the weight of the second, computed once for every row.
        let columns: [(Int, Int, Int)] = (0..<width).map { column in
            let u = min(max(0, x + (Double(column) + 0.5) * stepX - 0.5), Double(sourceWidth - 1))
            let left = Int(u)
            return (left * 3, min(left + 1, sourceWidth - 1) * 3, Int((u - Double(left)) * 256))
        }
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let v = min(max(0, y + (Double(row) + 0.5) * stepY - 0.5), Double(sourceHeight - 1))
                    let top = Int(v), weightY = Int((v - Double(top)) * 256)
                    let upper = top * sourceWidth * 3, lower = min(top + 1, sourceHeight - 1) * sourceWidth * 3
                    var out = row * width * 3
                    for (left, right, weightX) in columns {
                        for channel in 0..<3 {
                            let a = Int(source[upper + left + channel]), b = Int(source[upper + right + channel])
                            let c = Int(source[lower + left + channel]), d = Int(source[lower + right + channel])
                            let above = a * 256 + (b - a) * weightX, below = c * 256 + (d - c) * weightX
                            target[out + channel] = UInt8(clamping: (above * 256 + (below - above) * weightY + (1 << 15)) >> 16)
                        }
                        out += 3
                    }
                }
            }
        }
        return PreviewImage(width: width, height: height, pixels: output)
    }
}
