/// What kind of image file an original is, decided by its first bytes (the service may omit or
/// mistake `mimeType`).
public enum OriginalFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, tiff, webp, heic, avif
    /// A camera RAW that LibRaw reads: DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2 and the rest.
    case raw

    /// The format of `bytes`, nil when they are none photopick reads. A TIFF-shaped file (DNG, CR2,
    /// NEF, ARW are TIFF inside) is `.tiff` here; `OriginalDecoder` asks LibRaw first, as plain TIFFs
    /// are the rarer original.
    public static func sniff(_ bytes: [UInt8]) -> OriginalFormat? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return bytes.count >= offset + expected.count && Array(bytes[offset..<offset + expected.count]) == expected
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, "RIFF"), at(8, "WEBP") { return .webp }
        if at(0, "FUJIFILMCCD-RAW") { return .raw }
        // Olympus ORF and Panasonic RW2 change TIFF's magic number; LibRaw reads them.
        if at(0, "IIRO") || at(0, "IIRS") || at(0, "MMOR") || bytes.starts(with: [0x49, 0x49, 0x55, 0x00]) { return .raw }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if at(4, "ftyp") { return isoBrand(bytes) }
        return nil
    }

    /// HEIF and AVIF (and Canon's CR3) are ISO media files: the major brand, then the compatible ones.
    private static func isoBrand(_ bytes: [UInt8]) -> OriginalFormat? {
        guard bytes.count >= 16 else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= min(boxSize, bytes.count) {
            brands.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        if brands[0] == "crx " { return .raw }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
        if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains($0) }) { return .heic }
        return nil
    }

    /// The name users know it by, for the loupe's line.
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .tiff: "TIFF"
        case .webp: "WebP"
        case .heic: "HEIC"
        case .avif: "AVIF"
        case .raw: "RAW"
        }
    }
}
