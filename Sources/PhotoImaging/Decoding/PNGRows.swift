import CPNG

/// An 8-bit RGB PNG (the common export) read for the loupe a region at a time: its image data inflated
/// whole by libdeflate when opened, its rows unfiltered only as far down as a view asks (CPNG's
/// `cpng_rows`), the rest when a view below needs them.
public final class PNGRows: RegionReader {
    /// The C reader, which locks itself.
    private let reader: Reader
    /// The picture's size (a PNG has no orientation of its own).
    public let size: PixelSize

    /// The reader's pointer, freed with it. Sendable because `cpng_rows` locks its own state and never
    /// moves: every call goes through its mutex.
    private final class Reader: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { cpng_rows_free(pointer) }
    }

    /// Whether `bytes` is a PNG this reader takes, from its chunks' headers alone.
    static func takes(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { cpng_rows_eligible($0.baseAddress, $0.count) } == 1
    }

    /// The pixels a PNG's header declares (0 without one).
    static func pixels(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 24 else { return 0 }
        let word = { (at: Int) in Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return word(16) * word(20)
    }

    /// The PNG in `bytes`, inflated; nil when it is a kind libpng reads whole (16-bit, grey, palette,
    /// alpha, interlaced, another gamma).
    static func open(_ bytes: [UInt8], pixelLimit: Int) throws(PreviewError) -> PNGRows? {
        var pointer: OpaquePointer?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer {
            cpng_rows_open($0.baseAddress, $0.count, UInt64(pixelLimit), &pointer, &width, &height, &message, message.count)
        }
        switch status {
        case 0:
            guard let pointer else { throw .outOfMemory }
            return PNGRows(Reader(pointer), size: PixelSize(width: Int(width), height: Int(height)))
        case 1: return nil
        default: throw OriginalDecoder.failure(status, width: width, height: height, format: "PNG", message: message)
        }
    }

    private init(_ reader: Reader, size: PixelSize) {
        self.reader = reader
        self.size = size
    }

    /// Rows unfiltered so far, from the top, counted for tests of what a view costs.
    package var rowsUnfiltered: Int { Int(cpng_rows_ready(reader.pointer)) }

    /// The rows down to the rectangle's bottom unfiltered (those not done before), then its pixels copied.
    public func region(x0: Int, y0: Int, x1: Int, y1: Int) throws(PreviewError) -> PreviewImage {
        let width = x1 - x0, height = y1 - y0
        var message = [CChar](repeating: 0, count: 200)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            status = cpng_rows_region(reader.pointer, Int32(x0), Int32(y0), Int32(width), Int32(height), buffer.baseAddress, &message, message.count)
            count = status == 0 ? buffer.count : 0
        }
        guard status == 0 else { throw .damaged(format: "PNG", reason: OriginalDecoder.text(message)) }
        return PreviewImage(width: width, height: height, pixels: pixels)
    }
}
