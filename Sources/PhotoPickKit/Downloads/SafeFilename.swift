import Foundation

/// A file name made safe from whatever the server calls the photo: one path component, no control or
/// bidirectional-override characters, no leading dot, no `..`, an extension that matches the content,
/// and short enough that `.photopick.<name> (NN).part` fits in 255 bytes.
package struct SafeFilename: Sendable, Hashable {
    let stem: String
    /// With its dot, such as `.jpg`; may be empty.
    let fileExtension: String
    /// Used when not even one character of the stem fits.
    let fallbackStem: String

    static let maximumBytes = 255
    static let partSuffix = ".part"
    /// Partial files are hidden and carry photopick's name, as Syncthing's `.syncthing.NAME.tmp` do, so a
    /// user's own `NAME.part` is never mistaken for one.
    static let partPrefix = ".photopick."
    private static let jpegExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif"]
    /// Originals of other kinds: asked for as JPEG, `IMG_0001.HEIC` is `IMG_0001.jpg`, as the service names it.
    private static let imageExtensions: Set<String> = [
        "heic", "heif", "avif", "png", "tif", "tiff", "webp", "dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2",
    ]

    /// The name for `size`/`format` of a photo the server calls `serverName`.
    init(serverName: String, photoID: Int, mimeType: String?, size: DownloadSize, format: DownloadFormat) {
        // Named as what is asked for: the original as JPEG is the original in the JPEG format.
        let (size, format) = size.asked(in: format)
        let cleaned = Self.sanitized(serverName)
        var (stem, fileExtension) = Self.split(cleaned)
        if stem.isEmpty { stem = "photo-\(photoID)" }
        let isJPEG = format == .jpeg || size != .original || (format == .original && mimeType?.lowercased() == "image/jpeg")
        if format == .webp {
            stem += fileExtension
            fileExtension = ".webp"
        } else if size != .original {
            stem += "-\(size.rawValue)"
            fileExtension = ".jpg"
        } else if format == .jpeg, Self.imageExtensions.contains(String(fileExtension.dropFirst()).lowercased()) {
            fileExtension = ".jpg"
        } else if isJPEG, !Self.jpegExtensions.contains(String(fileExtension.dropFirst()).lowercased()) {
            // `holiday.jpg.exe` is a JPEG; it should not open as a program.
            stem += fileExtension
            fileExtension = ".jpg"
        }
        if (stem + fileExtension).lowercased().hasSuffix(Self.partSuffix) {
            // A name that looks like a partial download would be mistaken for one.
            stem += fileExtension + "_"
            fileExtension = ""
        }
        self.stem = stem
        self.fileExtension = fileExtension
        self.fallbackStem = "photo-\(photoID)"
    }

    /// The `n`-th choice: `name.jpg`, then `name (2).jpg`, `name (3).jpg`…, cut to fit with `.part` added.
    func candidate(_ number: Int) -> String {
        let suffix = number <= 1 ? "" : " (\(number))"
        let budget = Self.maximumBytes - Self.partPrefix.utf8.count - Self.partSuffix.utf8.count - fileExtension.utf8.count - suffix.utf8.count
        var cut = ""
        var used = 0
        for character in stem {
            used += character.utf8.count
            if used > budget { break }
            cut.append(character)
        }
        return (cut.isEmpty ? fallbackStem : cut) + suffix + fileExtension
    }

    /// One component: separators and controls become `_`, bidi overrides vanish, dots cannot lead or repeat.
    static func sanitized(_ name: String) -> String {
        var text = ""
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
            let category = scalar.properties.generalCategory
            // Invisible format characters go (bidi overrides above all); the joiner inside emoji stays.
            if category == .format, scalar != "\u{200D}" { continue }
            if scalar == "/" || scalar == "\\" || [.control, .lineSeparator, .paragraphSeparator].contains(category) {
                if !text.hasSuffix("_") { text += "_" }
                continue
            }
            if scalar == ".", text.hasSuffix(".") { continue }
            text.unicodeScalars.append(scalar)
        }
        text = text.trimmingCharacters(in: .whitespaces)
        while text.first == "." || text.first == " " { text.removeFirst() }
        while text.last == "." || text.last == " " { text.removeLast() }
        return text
    }

    /// `("IMG_1", ".jpg")`; an "extension" other than one to ten ASCII letters and digits is part of the stem.
    package static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let candidate = name[name.index(after: dot)...]
        guard (1...10).contains(candidate.count), candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return (name, "") }
        return (String(name[..<dot]), "." + candidate)
    }
}

/// Folder names made from server text (a template's `{title}/…`): one safe component each, so a path
/// built from them never leaves the download folder.
public enum SafePathComponent {
    /// `text` as one component: separators and controls become `_`, bidi overrides vanish, no leading
    /// dot, never `.` or `..`; `fallback` when nothing is left. Cut to 200 bytes.
    public static func make(_ text: String, fallback: String) -> String {
        var name = SafeFilename.sanitized(text)
        if name.isEmpty || name == "." || name == ".." { name = fallback }
        var cut = "", used = 0
        for character in name {
            used += character.utf8.count
            if used > 200 { break }
            cut.append(character)
        }
        return cut
    }
}
