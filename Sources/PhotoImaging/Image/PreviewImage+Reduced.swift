extension PreviewImage {
    /// The image at 1/`factor` of its width and height, each pixel the mean of the block it stands for:
    /// the quick first image sent over a slow link, which the terminal scales up to the same cells.
    /// Hand-written: a box filter by a whole factor is a few lines, and no decoder is at hand to redo it.
    public func reduced(by factor: Int) -> PreviewImage {
        guard factor > 1 else { return self }
        let newWidth = max(1, width / factor), newHeight = max(1, height / factor)
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                let area = UInt32(factor * factor)
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        var red: UInt32 = 0, green: UInt32 = 0, blue: UInt32 = 0
                        for row in (y * factor)..<(y * factor + factor) {
                            var offset = (row * width + x * factor) * 3
                            for _ in 0..<factor {
                                red += UInt32(source[offset])
                                green += UInt32(source[offset + 1])
                                blue += UInt32(source[offset + 2])
                                offset += 3
                            }
                        }
                        let out = (y * newWidth + x) * 3
                        target[out] = UInt8((red + area / 2) / area)
                        target[out + 1] = UInt8((green + area / 2) / area)
                        target[out + 2] = UInt8((blue + area / 2) / area)
                    }
                }
            }
        }
        return PreviewImage(width: newWidth, height: newHeight, pixels: output)
    }
}
