/// `Content-Disposition: attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266, RFC 8187).
enum ContentDisposition {
    static func attachment(filename: String) -> String {
        var fallback = ""
        for scalar in filename.unicodeScalars {
            let isSafe = scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\"
            fallback.unicodeScalars.append(isSafe ? scalar : "_")
        }
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(percentEncoded(filename))"
    }

    /// Whether each byte value is an RFC 8187 attr-char, kept as it is.
    private static let isAttrChar: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()

    /// Keeps RFC 8187 attr-chars, encodes every other byte.
    private static func percentEncoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isAttrChar[Int(byte)] {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), HexDigits.uppercase[Int(byte >> 4)], HexDigits.uppercase[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name a variant downloads as: the original's name, or its stem with the size appended.
    static func filename(for photo: PhotoRecord, variant: ImageVariant) -> String {
        guard variant != .original else { return photo.filename }
        let stem = photo.filename.lastIndex(of: ".").map { String(photo.filename[..<$0]) } ?? photo.filename
        let name = stem.isEmpty ? "photo-\(photo.id)" : stem
        return variant == .originalJPEG ? name + ".jpg" : "\(name)-\(variant.rawValue).jpg"
    }
}
