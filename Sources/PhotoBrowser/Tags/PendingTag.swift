/// A tag asked for by name that the server has not made yet. Until it exists, edits name it by a
/// negative placeholder id; the outbox keeps the creation and those edits together, and rewrites them
/// to the real id once the server has made (or already had) the tag.
package struct PendingTag: Sendable, Hashable {
    /// Negative, unique in the state database: a sequence number taken for it, negated.
    let placeholderID: Int
    /// The name to create it under.
    let name: String
    /// The colour to create it with.
    let color: String?

    /// Whether a tag id is a placeholder for a tag not created yet.
    static func isPlaceholder(_ tagID: Int) -> Bool { tagID < 0 }
}
