import CJPEG

/// An original made ready for the loupe and the focus score: JPEG bytes decoded a band at a time (a
/// JPEG, or a RAW's embedded preview standing upright as stored), a TIFF of 8-bit RGB decoded a region
/// at a time (only its strips or tiles under the loupe), a HEIC grid, an 8-bit RGB PNG or a WebP by a
/// reader of its own (tiles decoded, rows inflated and unfiltered, macroblock rows down to the view), or
/// pixels decoded whole once (a HEIC of one picture, AVIF, another PNG, a TIFF of another layout, a
/// RAW's demosaic or a preview that had to be turned), kept while the photo is.
public struct OriginalPicture: Sendable {
    /// Where the pixels come from.
    public enum Pixels: Sendable {
        case jpeg([UInt8])
        /// A TIFF's bytes, its first image's size as stored and its orientation tag (1...8).
        case tiff([UInt8], stored: PixelSize, orientation: Int)
        /// A HEIC grid (`HEIFTiles`), an 8-bit RGB PNG (`PNGRows`) or a WebP (`WebPRegions`), read by its own reader.
        case regions(any RegionReader)
        case decoded(PreviewImage)
    }

    /// The pixels, or the JPEG they are decoded from.
    public let pixels: Pixels
    /// The file's format, as its bytes say.
    public let format: OriginalFormat
    /// The upright size of what the loupe shows at 100%.
    public let size: PixelSize
    /// What that 100% is of, when it is not the file's own pixels: "embedded preview 6000×4000",
    /// "50% demosaic".
    public let note: String?

    /// A picture of `size` (upright) from `pixels`.
    public init(pixels: Pixels, format: OriginalFormat, size: PixelSize, note: String? = nil) {
        self.pixels = pixels
        self.format = format
        self.size = size
        self.note = note
    }

    /// Whether a region costs by what it covers (a HEIC grid's tiles, a PNG's rows down to its bottom),
    /// so the loupe decodes its view before the band around it.
    public var decodesViewFirst: Bool {
        if case .regions = pixels { true } else { false }
    }

    /// The pixels of `region` of the upright picture at full size, clipped to it; `origin` is where the
    /// pixels returned start.
    public func region(x: Int, y: Int, width: Int, height: Int, decoder: PreviewDecoder) throws(PreviewError)
        -> (image: PreviewImage, originX: Int, originY: Int) {
        switch pixels {
        case .jpeg(let bytes):
            let band = try decoder.decodeRegion(bytes, x: x, y: y, width: width, height: height)
            return (band.image, band.originX, band.originY)
        case .tiff(let bytes, let stored, let orientation):
            let (x0, y0, x1, y1) = Self.clip(x: x, y: y, width: width, height: height, to: size)
            let rectangle = Self.stored(x: x0, y: y0, width: x1 - x0, height: y1 - y0, in: stored, orientation: orientation)
            let region = try OriginalDecoder.tiffRegion(bytes, x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
            return (region.oriented(exif: orientation), x0, y0)
        case .regions(let reader):
            let (x0, y0, x1, y1) = Self.clip(x: x, y: y, width: width, height: height, to: size)
            return (try reader.region(x0: x0, y0: y0, x1: x1, y1: y1), x0, y0)
        case .decoded(let image):
            let (x0, y0, x1, y1) = Self.clip(x: x, y: y, width: width, height: height, to: image.size)
            return (image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0), x0, y0)
        }
    }

    /// The rectangle clipped to `size`, at least one pixel: its corners.
    private static func clip(x: Int, y: Int, width: Int, height: Int, to size: PixelSize) -> (Int, Int, Int, Int) {
        let x0 = min(max(0, x), size.width - 1), y0 = min(max(0, y), size.height - 1)
        return (x0, y0, min(size.width, max(x0 + 1, x + width)), min(size.height, max(y0 + 1, y + height)))
    }

    /// Where a rectangle of the upright picture lies in the picture as stored, which EXIF `orientation`
    /// stands upright: a rectangle of the stored pixels, oriented alike, is the upright one.
    static func stored(x: Int, y: Int, width: Int, height: Int, in stored: PixelSize, orientation: Int)
        -> (x: Int, y: Int, width: Int, height: Int) {
        let (w, h) = (stored.width, stored.height)
        switch orientation {
        case 2: return (w - x - width, y, width, height)
        case 3: return (w - x - width, h - y - height, width, height)
        case 4: return (x, h - y - height, width, height)
        case 5: return (y, x, height, width)
        case 6: return (y, h - x - width, height, width)
        case 7: return (w - y - height, h - x - width, height, width)
        case 8: return (w - y - height, x, height, width)
        default: return (x, y, width, height)
        }
    }

    /// The whole picture fitted inside `box`, aspect kept, never enlarged: what a focus score is taken on.
    public func fitting(_ box: PixelSize, decoder: PreviewDecoder) throws(PreviewError) -> PreviewImage {
        switch pixels {
        case .jpeg(let bytes): return try decoder.decode(bytes, fitting: box).image
        case .tiff, .regions: return Self.fit(try region(x: 0, y: 0, width: size.width, height: size.height, decoder: decoder).image, in: box)
        case .decoded(let image): return Self.fit(image, in: box)
        }
    }

    /// The histogram of every pixel of the original: a JPEG decoded whole once (its bands would each be
    /// decoded from the top), a TIFF read a band of rows at a time, a region reader's picture in one region, a decoded picture as it is.
    public func histogram(decoder: PreviewDecoder) throws(PreviewError) -> Histogram {
        switch pixels {
        case .jpeg(let bytes):
            return Histogram(try decoder.decode(bytes, fitting: size).image)
        case .regions:
            // Once whole: a WebP's regions are each decoded from the top.
            return Histogram(try region(x: 0, y: 0, width: size.width, height: size.height, decoder: decoder).image)
        case .tiff:
            var histogram = Histogram()
            let rows = max(1, 4_000_000 / max(1, size.width))
            for y in stride(from: 0, to: size.height, by: rows) {
                histogram.add(try region(x: 0, y: y, width: size.width, height: min(rows, size.height - y), decoder: decoder).image)
            }
            return histogram
        case .decoded(let image):
            return Histogram(image)
        }
    }

    /// `image` fitted inside `box`, aspect kept, never enlarged.
    private static func fit(_ image: PreviewImage, in box: PixelSize) -> PreviewImage {
        let scale = min(1, Double(box.width) / Double(image.width), Double(box.height) / Double(image.height))
        let width = max(1, Int((Double(image.width) * scale).rounded())), height = max(1, Int((Double(image.height) * scale).rounded()))
        guard width < image.width || height < image.height else { return image }
        // Averaged down by a whole factor first, so the bilinear step never skips detail.
        let reduced = image.reduced(by: max(1, min(image.width / width, image.height / height)))
        return reduced.resampled(width: width, height: height, x: 0, y: 0, stepX: Double(reduced.width) / Double(width),
                                 stepY: Double(reduced.height) / Double(height))
    }
}

extension PreviewImage {
    /// The pixels of a rectangle inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> PreviewImage {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height, "the crop must lie inside")
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let from = ((y + row) * self.width + x) * 3
                    target.baseAddress!.advanced(by: row * width * 3).update(from: source.baseAddress!.advanced(by: from), count: width * 3)
                }
            }
        }
        return PreviewImage(width: width, height: height, pixels: out)
    }

    /// The image stood upright per EXIF `orientation` (1...8), as the JPEG path does (`cjpeg_orient_rgb`).
    public func oriented(exif orientation: Int) -> PreviewImage {
        guard (2...8).contains(orientation) else { return self }
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { stored in
            out.withUnsafeMutableBufferPointer { cjpeg_orient_rgb(stored.baseAddress, Int32(width), Int32(height), Int32(orientation), $0.baseAddress) }
        }
        return orientation >= 5 ? PreviewImage(width: height, height: width, pixels: out) : PreviewImage(width: width, height: height, pixels: out)
    }
}
