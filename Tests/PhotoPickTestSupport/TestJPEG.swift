import CJPEG

/// Test pictures encoded through CJPEG, so each test controls pixels, progression and EXIF.
public enum TestJPEG {
    /// `width` × `height` pixels from `pixel(x, y)`, encoded with the given quality, progression and EXIF orientation.
    public static func encode(width: Int, height: Int, quality: Int = 95, progressive: Bool = false, orientation: Int = 0,
                              pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                pixels += [r, g, b]
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = cjpeg_encode_rgb(pixels, Int32(width), Int32(height), Int32(quality), progressive ? 1 : 0,
                                      Int32(orientation), &output, &length, &message, message.count)
        precondition(status == CJPEG_OK, "test JPEG encoding failed")
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// 64×32: red, green / blue, white quadrants, on 16-pixel block boundaries so they stay clean.
    public static func quadrants(orientation: Int = 0, progressive: Bool = false) -> [UInt8] {
        encode(width: 64, height: 32, progressive: progressive, orientation: orientation) { x, y in
            TestPicture.quadrant(x, y, width: 64, height: 32)
        }
    }

    /// A 4:2:0 picture with detail everywhere (so a wrong offset shows), 333 × 217: no side a multiple of
    /// a block, so the last iMCU row and column are partial.
    public static func detailed(orientation: Int = 0, progressive: Bool = false) -> [UInt8] {
        encode(width: 333, height: 217, quality: 90, progressive: progressive, orientation: orientation) { x, y in
            (UInt8((x * 7 + y * 3) & 255), UInt8((x * x / 5 + y * 11) & 255), UInt8(((x ^ y) * 13) & 255))
        }
    }
}
