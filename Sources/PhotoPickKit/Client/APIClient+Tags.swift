import Foundation

extension APIClient {
    /// Creates a tag, safely across failures: after an ambiguous failure (the request may have been
    /// applied), it tries again, and a `409 conflict` then resolves to the tag of that name.
    ///
    /// A conflict on the first try is a real one (the name was taken before) and is thrown.
    public nonisolated func createTag(name: String, color: String? = nil) async throws(APIError) -> Tag {
        let policy = configuration.retryPolicy
        var attempt = 1
        var wasAmbiguous = false
        while true {
            do {
                return try await send(API.createTag(name: name, color: color))
            } catch {
                if wasAmbiguous, error.code == .conflict {
                    return try await existingTag(named: name, conflict: error)
                }
                guard error.isAmbiguous, attempt < policy.maximumAttempts else { throw error }
                wasAmbiguous = true
                attempt += 1
                try await sleepOrCancel(for: policy.backoff(afterAttempt: attempt - 1))
            }
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
