import Foundation
import PhotoPickFormats

/// `PATCH /photos/{id}`: `filename`, `title`, `description`, `takenAt`; an omitted field is unchanged.
struct PhotoPatchBody: Decodable {
    let patch: PhotoPatch

    private enum Key: String, CodingKey { case filename, title, description, takenAt }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var patch = PhotoPatch()
        var issues: [APIFailure.Issue] = []
        if container.contains(.filename) {
            let filename = try container.decode(String.self, forKey: .filename)
            if filename.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || filename.unicodeScalars.count > 255 {
                issues.append(.init(field: "filename", message: "must be 1 to 255 characters and not all white space"))
            }
            patch.filename = filename
        }
        patch.title = try container.decodeUpdate(String.self, forKey: .title)
        if case .set(let title?) = patch.title, title.unicodeScalars.count > 200 {
            issues.append(.init(field: "title", message: "must be at most 200 characters"))
        }
        patch.description = try container.decodeUpdate(String.self, forKey: .description)
        if case .set(let description?) = patch.description, description.unicodeScalars.count > 4000 {
            issues.append(.init(field: "description", message: "must be at most 4000 characters"))
        }
        switch try container.decodeUpdate(String.self, forKey: .takenAt) {
        case .unchanged: break
        case .set(nil): patch.takenAt = .set(nil)
        case .set(let text?):
            if let time = ISO8601.milliseconds(from: text) {
                patch.takenAt = .set(CaptureTime(seconds: time.seconds, milliseconds: time.milliseconds))
            } else {
                issues.append(.init(field: "takenAt", message: "must be an ISO 8601 date-time such as 2024-06-01T14:03:22Z"))
            }
        }
        guard issues.isEmpty else { throw APIFailure.validation(issues) }
        self.patch = patch
    }
}

/// `PUT /photos/{id}/tags`: `{"tagIds": [...]}`.
struct PhotoTagsBody: Decodable {
    let tagIds: [Int64]
}

/// `POST /tags`: `{"name", "color"?}`.
struct TagCreateBody: Decodable {
    let name: String
    let color: String?

    private enum Key: String, CodingKey { case name, color }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let name = try container.decode(String.self, forKey: .name)
        let color = try container.decodeIfPresent(String.self, forKey: .color)
        let issues = TagRules.issues(name: name, color: color)
        guard issues.isEmpty else { throw APIFailure.validation(issues) }
        self.name = TagRules.normalisedName(name)
        self.color = color?.lowercased()
    }
}

/// `PATCH /tags/{id}`: `{"name"?, "color"?}`; `color: null` clears the colour.
struct TagPatchBody: Decodable {
    let patch: TagPatch

    private enum Key: String, CodingKey { case name, color }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var patch = TagPatch()
        if container.contains(.name) {
            // Unlike colour, a name cannot be cleared: null is a type error, not "unchanged".
            patch.name = try container.decode(String.self, forKey: .name)
        }
        patch.color = try container.decodeUpdate(String.self, forKey: .color)
        var color: String?
        if case .set(let value) = patch.color { color = value }
        let issues = TagRules.issues(name: patch.name, color: color)
        guard issues.isEmpty else { throw APIFailure.validation(issues) }
        patch.name = patch.name.map(TagRules.normalisedName)
        if case .set(let value?) = patch.color { patch.color = .set(value.lowercased()) }
        self.patch = patch
    }
}

/// Tag names are 1...64 characters (Unicode scalars, as JSON Schema counts) after trimming; colours are `#rrggbb`.
enum TagRules {
    static func normalisedName(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func issues(name: String?, color: String?) -> [APIFailure.Issue] {
        var issues: [APIFailure.Issue] = []
        if let name {
            let trimmed = normalisedName(name)
            if trimmed.isEmpty || trimmed.unicodeScalars.count > 64 {
                issues.append(.init(field: "name", message: "must be 1 to 64 characters after trimming"))
            } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                issues.append(.init(field: "name", message: "must not contain control characters"))
            }
        }
        if let color, !isColor(color) {
            issues.append(.init(field: "color", message: "must be #rrggbb, e.g. #e94b60"))
        }
        return issues
    }

    private static func isColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
