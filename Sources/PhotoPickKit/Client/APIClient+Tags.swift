import Foundation

extension APIClient {
    /// Creates a tag, safely across failures: after an ambiguous failure (the request may have been
    /// applied), it goes again through the one retry path (the pacer, `Retry-After`, the backoff), and a
    /// `409 conflict` then resolves to the tag of that name.
    ///
    /// A conflict on a first try that nothing made ambiguous is a real one (the name was taken before)
    /// and is thrown.
    public nonisolated func createTag(name: String, color: String? = nil) async throws(APIError) -> Tag {
        var request = API.createTag(name: name, color: color)
        request.retriesAmbiguousFailures = true
        var wasAmbiguous = false
        do {
            let response = try await perform(request, wasAmbiguous: &wasAmbiguous)
            return try decode(response, as: request)
        } catch where wasAmbiguous && error.code == .conflict {
            return try await existingTag(named: name, conflict: error)
        }
    }

    /// The tag a conflict names (`details.existingTagId`), or else the one whose name matches.
    private nonisolated func existingTag(named name: String, conflict: APIError) async throws(APIError) -> Tag {
        if case .response(let response) = conflict, let id = response.existingTagID {
            return try await send(API.tag(id: id))
        }
        let wanted = Tag.nameKey(name)
        do {
            for try await tag in TagStream(client: self) where Tag.nameKey(tag.name) == wanted {
                return tag
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw conflict
        }
        throw conflict
    }
}

extension Tag {
    /// What makes two tag names the same name, as the server compares them: trimmed, NFC, case-folded.
    public static func nameKey(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive], locale: nil)
    }
}

extension APIError {
    /// Whether the request may have been applied although no success came back: a lost answer or a server failure.
    var isAmbiguous: Bool {
        switch self {
        case .transport, .timeout: true
        case .response(let response): response.status >= 500
        case .decoding, .cancelled: false
        }
    }
}

extension Sequence where Element == Tag {
    /// The tag whose name matches `name` as the server matches names (`Tag.nameKey`, ignoring case).
    public func first(named name: String) -> Tag? {
        let key = Tag.nameKey(name)
        return first { Tag.nameKey($0.name) == key }
    }
}
