import Foundation
import PhotoBrowser
import PhotoPickKit

/// An XMP sidecar for a downloaded photo, as darktable, Lightroom and exiftool read one: the tags as
/// `dc:subject` keywords, the stars as `xmp:Rating` (-1 for a reject), the colour label as
/// `xmp:Label`, and the title and description. Written beside the file as `<file name>.xmp`, the name
/// darktable looks for. Hand-written: no XMP library is packaged for Swift on Linux, and the packet is
/// a few fixed elements with escaped text.
enum XMPSidecar {
    /// The sidecar's URL for a downloaded file (`SyncPlan`'s rule, which pairs them).
    static func url(for file: URL) -> URL { SyncPlan.sidecarURL(for: file) }

    /// The packet for a photo.
    static func document(for photo: ListedPhoto) -> String {
        var attributes: [String] = []
        if photo.marks.flag == "reject" {
            attributes.append("xmp:Rating=\"-1\"")
        } else if let rating = photo.marks.rating {
            attributes.append("xmp:Rating=\"\(rating)\"")
        } else {
            attributes.append("xmp:Rating=\"0\"")
        }
        if let label = photo.marks.label { attributes.append("xmp:Label=\"\(escape(label.capitalized))\"") }
        var lines = [
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"photopick\">",
            " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
            "  <rdf:Description rdf:about=\"\"",
            "    xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"",
            "    xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
        ]
        lines += attributes.enumerated().map { "    " + $1 + ($0 == attributes.count - 1 ? ">" : "") }
        let keywords = photo.tags.map(escape).filter { !$0.isEmpty }
        if !keywords.isEmpty {
            lines += ["   <dc:subject>", "    <rdf:Bag>"] + keywords.map { "     <rdf:li>\($0)</rdf:li>" } + ["    </rdf:Bag>", "   </dc:subject>"]
        }
        for (element, text) in [("dc:title", photo.title), ("dc:description", photo.description)] {
            guard let text = text.map(escape), !text.isEmpty else { continue }
            lines += ["   <\(element)>", "    <rdf:Alt>", "     <rdf:li xml:lang=\"x-default\">\(text)</rdf:li>", "    </rdf:Alt>", "   </\(element)>"]
        }
        lines += ["  </rdf:Description>", " </rdf:RDF>", "</x:xmpmeta>", "<?xpacket end=\"w\"?>", ""]
        return lines.joined(separator: "\n")
    }

    /// What writing a sidecar came to.
    enum Outcome: Sendable, Equatable {
        /// It already said this.
        case unchanged
        /// Written (created, or photopick's own replaced).
        case written
        /// A sidecar photopick did not write, or one changed since, is there: left as it is.
        case leftAlone
    }

    /// Writes the sidecar beside `file` when it is missing or says something else: into a temporary
    /// name first, then renamed into place, so no reader ever sees half of one. One already there is
    /// replaced only when `isOurs` says photopick wrote it and it is as written (darktable's or the
    /// user's own sidecar is never overwritten). `record` keeps the new file's record, before it is in place.
    static func write(
        for photo: ListedPhoto, beside file: URL, isOurs: (URL) -> Bool, record: (WrittenFile) throws -> Void
    ) throws -> Outcome {
        let target = url(for: file)
        let text = document(for: photo)
        var info = stat()
        let exists = lstat(target.path, &info) == 0
        if exists {
            if let existing = try? String(contentsOf: target, encoding: .utf8), existing == text { return .unchanged }
            guard info.st_mode & S_IFMT == S_IFREG, isOurs(target) else { return .leftAlone }
        }
        let temporary = target.deletingLastPathComponent().appending(path: ".\(target.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(target) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count,
              let made = WrittenFile.reading(temporary.path, as: target.path, photoID: photo.id, variant: WrittenFile.sidecarVariant)
        else {
            let error = failure(target)
            unlink(temporary.path)
            throw error
        }
        do { try record(made) } catch {
            unlink(temporary.path)
            throw error
        }
        // A new one is linked, so a file that appeared meanwhile is never replaced; ours is renamed over.
        let placed = exists ? rename(temporary.path, target.path) == 0 : link(temporary.path, target.path) == 0
        let error = placed ? nil : failure(target)
        unlink(temporary.path)
        if let error { throw error }
        return .written
    }

    private static func failure(_ target: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write \(target.path): \(String(cString: strerror(errno)))"])
    }

    /// Text as XML character data: the five specials escaped, and what XML 1.0 cannot hold at all
    /// (control characters but tab and newline, lone surrogates) left out.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
