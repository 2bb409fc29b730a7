import PhotoImaging
@testable import PhotoPickServer
import Testing

/// The demo server's originals of every kind (JPEG, HEIC, DNG, PNG, TIFF, WebP, AVIF), read back by the loupe's
/// decoders: each weighs exactly what its metadata says, is the format its bytes and `mimeType` say,
/// stands upright at the photo's size and shows the scene it was made from.
struct DemoOriginalTests {
    /// A photo of the demo library recast as `kind`, `width` × `height`.
    static func photo(_ kind: OriginalKind, width: Int, height: Int, seed: Int64 = 7) -> PhotoRecord {
        let jpeg = PhotoRecord(
            id: 1, filename: "IMG_0001.JPG", bytes: Int64(width * height * 3 / 8) + 4096, takenAt: nil, createdAt: 0,
            width: width, height: height, mimeType: "image/jpeg", cameraMake: "Canon", cameraModel: "Canon EOS R6 Mark II",
            imageSeed: seed
        )
        return DemoLibraryGenerator.recast(jpeg, as: kind)
    }

    /// The mean difference per channel between two images of one size, 0...255.
    static func meanDifference(_ a: PreviewImage, _ b: [UInt8]) -> Double {
        precondition(a.pixels.count == b.count)
        var total = 0
        for index in b.indices { total += abs(Int(a.pixels[index]) - Int(b[index])) }
        return Double(total) / Double(b.count)
    }

    @Test(arguments: OriginalKind.allCases, [(96, 64), (64, 96)])
    func eachKindIsReadBackUprightAsItsScene(kind: OriginalKind, size: (Int, Int)) throws {
        let photo = Self.photo(kind, width: size.0, height: size.1)
        #expect(photo.mimeType == kind.mimeType && photo.filename == "IMG_0001." + kind.fileExtension)
        let bytes = try OriginalEncoder.encode(photo)
        #expect(bytes.count == Int(photo.bytes), "\(kind) weighs what its metadata says")
        let expected: OriginalFormat = switch kind {
        case .jpeg: .jpeg
        case .heic: .heic
        case .dng: .tiff
        case .png: .png
        case .tiff: .tiff
        case .webp: .webp
        case .avif: .avif
        }
        #expect(OriginalFormat.sniff(bytes) == expected)
        let picture = try OriginalDecoder().prepare(bytes)
        #expect(picture.size == PixelSize(width: size.0, height: size.1), "\(kind) \(size): upright at the photo's size")
        let image = try picture.region(x: 0, y: 0, width: size.0, height: size.1, decoder: PreviewDecoder()).image
        let scene = try JPEGEncoder.render(SceneDesign(photo), width: size.0, height: size.1)
        // Lossy kinds within a few levels; a turned or mirrored picture differs by tens.
        let difference = Self.meanDifference(image, scene)
        #expect(difference < ([.png, .tiff].contains(kind) ? 0.01 : 9), "\(kind) \(size): mean difference \(difference)")
    }

    /// A DNG's note says what its 100% is of: the full-size preview the camera embedded.
    @Test func aDemoDNGIsShownFromItsFullSizePreview() throws {
        let photo = Self.photo(.dng, width: 96, height: 64)
        let picture = try OriginalDecoder().prepare(try OriginalEncoder.encode(photo))
        #expect(picture.format == .raw && picture.note == "embedded preview 96×64")
    }

    /// Cut short, or its bytes after the magic changed at random: an error or a picture, never a crash
    /// or a hang, for every kind.
    @Test(arguments: OriginalKind.allCases)
    func aDamagedOriginalIsAnErrorNotACrash(kind: OriginalKind) throws {
        let bytes = try OriginalEncoder.encode(Self.photo(kind, width: 96, height: 64))
        var generator = SystemRandomNumberGenerator()
        var files = stride(from: 4, to: bytes.count, by: max(1, bytes.count / 9)).map { Array(bytes.prefix($0)) }
        for _ in 0..<20 {
            var copy = bytes
            for _ in 0..<8 { copy[Int.random(in: 16..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            files.append(copy)
        }
        // The magic, then noise.
        files.append(Array(bytes.prefix(16)) + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var failures = 0
        for file in files {
            do {
                let picture = try OriginalDecoder().prepare(file)
                _ = try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder())
            } catch {
                failures += 1
                #expect(!"\(error)".isEmpty)
            }
        }
        #expect(failures >= 1, "\(kind): at least the shortest cut fails")
    }

    /// `get`'s check reads each kind through: a whole file opens as its format; the server's damaged one
    /// (its magic, then random bytes) does not; and a file cut short does not open until its data is
    /// all there (the demo's padding after the data may go).
    @Test(arguments: OriginalKind.allCases)
    func theCheckAfterADownloadOpensAWholeFileAndRefusesADamagedOne(kind: OriginalKind) throws {
        let bytes = try OriginalEncoder.encode(Self.photo(kind, width: 96, height: 64))
        let decoder = OriginalDecoder()
        #expect(try decoder.verify(bytes) == OriginalFormat.sniff(bytes))
        #expect(try decoder.verify(bytes) != nil)
        #expect(throws: PreviewError.self, "\(kind)") { try decoder.verify(ImageStore.damage(bytes, seed: 5)) }
        let opens = stride(from: 16, to: bytes.count, by: max(1, bytes.count / 40)).map { (try? decoder.verify(Array(bytes.prefix($0)))) != nil }
        #expect(opens.first == false, "\(kind): its first bytes alone open")
        #expect(opens.drop { !$0 }.allSatisfy { $0 }, "\(kind): a shorter cut opened where a longer one did not: \(opens)")
    }
}
