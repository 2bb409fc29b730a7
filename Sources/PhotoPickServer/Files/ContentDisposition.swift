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

    /// Keeps RFC 8187 attr-chars, encodes every other byte.
    private static func percentEncoded(_ text: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name a variant downloads as: the original's name, or its stem with the size appended.
    static func filename(for photo: PhotoRecord, variant: ImageVariant) -> String {
        guard variant != .original else { return photo.filename }
        let stem = photo.filename.lastIndex(of: ".").map { String(photo.filename[..<$0]) } ?? photo.filename
        return "\(stem.isEmpty ? "photo-\(photo.id)" : stem)-\(variant.rawValue).jpg"
    }
}
