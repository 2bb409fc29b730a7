import Foundation

/// A line or a path made from a photo's fields: `{id}\t{filename}\t{taken:%Y-%m-%d}`. Fields are in
/// braces, a time field may carry a strftime format after a colon (local time, as the browser shows
/// it), `{{` and `}}` are braces, and `\t`, `\n`, `\\` are a tab, a newline and a backslash.
package struct PhotoTemplate: Sendable, Equatable {
    /// A template that cannot be used: the one line names what and how to fix it.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        /// The line for the user.
        package let description: String
    }

    /// The fields a template may name.
    package static let fields = ["id", "filename", "name", "extension", "bytes", "taken", "width", "height", "title", "camera", "lens",
                                "tags", "flag", "rating", "label", "sharpness", "n"]

    package enum Part: Sendable, Equatable {
        case text(String)
        case field(String, format: String?)
    }

    /// The literal text and fields, in order.
    package let parts: [Part]

    /// Parses `text`; throws a `Problem` naming an unknown field or an unclosed brace.
    package init(_ text: String) throws(Problem) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        func flush() {
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex {
                switch text[next] {
                case "t": literal.append("\t")
                case "n": literal.append("\n")
                case "\\": literal.append("\\")
                default: literal.append(character); literal.append(text[next])
                }
                index = text.index(after: next)
            } else if character == "{", next < text.endIndex, text[next] == "{" {
                literal.append("{")
                index = text.index(after: next)
            } else if character == "}", next < text.endIndex, text[next] == "}" {
                literal.append("}")
                index = text.index(after: next)
            } else if character == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw Problem(description: "the brace at “\(text[index...].prefix(12))” is never closed; write {field}, or {{ for a brace")
                }
                let inside = text[next..<close]
                let name = String(inside.prefix { $0 != ":" })
                let format = inside.contains(":") ? String(inside.drop { $0 != ":" }.dropFirst()) : nil
                guard Self.fields.contains(name) else {
                    throw Problem(description: "{\(inside)} is not a field; use one of \(Self.fields.joined(separator: ", "))")
                }
                if let format, name == "n", format.isEmpty || !format.allSatisfy({ ("0"..."9").contains($0) }) || format.count > 2 {
                    throw Problem(description: "{\(inside)}: a sequence number takes a width in digits, such as {n:03}")
                }
                if format != nil, name != "taken", name != "n" {
                    throw Problem(description: "{\(inside)}: only {taken} and {n} take a format, such as {taken:%Y-%m-%d} or {n:03}")
                }
                flush()
                parts.append(.field(name, format: format))
                index = text.index(after: close)
            } else if character == "}" {
                throw Problem(description: "a lone } in the template; write }} for a brace")
            } else {
                literal.append(character)
                index = next
            }
        }
        flush()
        self.parts = parts
    }

    /// The fields the template names.
    package var fieldNames: [String] {
        parts.compactMap { if case .field(let name, _) = $0 { name } else { nil } }
    }

    /// The text for `photo`, the `sequence`th of those rendered (`{n}`, from 1); each field's value goes
    /// through `clean` (for a line: control characters out; for a path: a safe file name).
    package func render(_ photo: ListedPhoto, sequence: Int = 1, timeZone: TimeZone = .current, clean: (String) -> String) -> String {
        var output = ""
        for part in parts {
            switch part {
            case .text(let text): output += text
            case .field("n", let format): output += Self.number(sequence, width: format)
            case .field(let name, let format): output += clean(Self.value(name, format: format, of: photo, timeZone: timeZone))
            }
        }
        return output
    }

    /// A field's value; empty when the photo has none.
    package static func value(_ name: String, format: String?, of photo: ListedPhoto, timeZone: TimeZone = .current) -> String {
        switch name {
        case "id": return String(photo.id)
        case "filename": return photo.filename
        case "name":
            let base = (photo.filename as NSString).deletingPathExtension
            return base.isEmpty ? photo.filename : base
        case "extension": return (photo.filename as NSString).pathExtension
        case "bytes": return String(photo.bytes)
        case "taken":
            guard let taken = photo.takenAt else { return format == nil ? "" : "undated" }
            return strftime(format ?? "%Y-%m-%dT%H:%M:%S", taken, timeZone)
        case "width": return photo.width.map(String.init) ?? ""
        case "height": return photo.height.map(String.init) ?? ""
        case "title": return photo.title ?? ""
        case "camera": return [photo.camera?.make, photo.camera?.model].compactMap { $0 }.joined(separator: " ")
        case "lens": return photo.lens ?? ""
        case "tags": return photo.tags.joined(separator: ",")
        case "flag": return photo.marks.flag ?? ""
        case "rating": return photo.marks.rating.map(String.init) ?? ""
        case "label": return photo.marks.label ?? ""
        case "sharpness": return photo.sharpness.map { String(format: "%.1f", $0) } ?? ""
        default: return ""
        }
    }

    /// `7` as `{n:03}` writes it: `007`; a width without a leading zero pads with nothing.
    static func number(_ value: Int, width format: String?) -> String {
        let text = String(value)
        guard let format, format.hasPrefix("0"), let width = Int(format), text.count < width else { return text }
        return String(repeating: "0", count: width - text.count) + text
    }

    /// C's strftime on the time in `timeZone` (its fields; %z and %Z are not meaningful here).
    private static func strftime(_ format: String, _ date: Date, _ timeZone: TimeZone) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down)) + time_t(timeZone.secondsFromGMT(for: date))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        let count = Foundation.strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
