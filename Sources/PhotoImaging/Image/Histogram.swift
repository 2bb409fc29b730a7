/// How a picture's pixels spread over the 256 levels: luminance and each channel, and the share
/// clipped at each end. Luminance is Rec. 709 luma of the stored (gamma-encoded) values, rounded to a
/// level, as ImageMagick's `-colorspace Gray` makes it, so the two count alike.
public struct Histogram: Sendable, Equatable {
    /// Pixels at each level, 0 to 255.
    public private(set) var luminance: [Int], red: [Int], green: [Int], blue: [Int]
    /// Pixels counted.
    public private(set) var total = 0

    /// An empty histogram, to add bands of a picture to.
    public init() {
        luminance = Array(repeating: 0, count: 256)
        (red, green, blue) = (luminance, luminance, luminance)
    }

    /// The histogram of `image`.
    public init(_ image: PreviewImage) {
        self.init()
        add(image)
    }

    /// Counts the pixels of `image` (a band of a larger picture, say) in.
    public mutating func add(_ image: PreviewImage) {
        var luminance = self.luminance, red = self.red, green = self.green, blue = self.blue
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let r = Int(pixels[offset]), g = Int(pixels[offset + 1]), b = Int(pixels[offset + 2])
                luminance[Self.luma(r, g, b)] += 1
                red[r] += 1
                green[g] += 1
                blue[b] += 1
                offset += 3
            }
        }
        (self.luminance, self.red, self.green, self.blue) = (luminance, red, green, blue)
        total += image.width * image.height
    }

    /// A pixel's luminance level: 0.212656 R + 0.715158 G + 0.072186 B (ImageMagick's Rec. 709
    /// weights, which sum to one), rounded half up, in integers.
    @inline(__always)
    public static func luma(_ red: Int, _ green: Int, _ blue: Int) -> Int {
        (212_656 * red + 715_158 * green + 72_186 * blue + 500_000) / 1_000_000
    }

    /// The share of pixels whose luminance is the highest level: blown highlights.
    public var clippedHighlights: Double { total == 0 ? 0 : Double(luminance[255]) / Double(total) }
    /// The share of pixels whose luminance is the lowest level: crushed shadows.
    public var clippedShadows: Double { total == 0 ? 0 : Double(luminance[0]) / Double(total) }
}

extension PreviewImage {
    /// The picture with its blown highlights red and its crushed shadows blue, as Lightroom's clipping
    /// overlay shows them: the pixels a histogram counts at its ends.
    public func showingClipping() -> PreviewImage {
        var shown = pixels
        shown.withUnsafeMutableBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let level = Histogram.luma(Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                if level == 255 {
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (255, 0, 0)
                } else if level == 0 {
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (0, 0, 255)
                }
                offset += 3
            }
        }
        return PreviewImage(width: width, height: height, pixels: shown)
    }
}
