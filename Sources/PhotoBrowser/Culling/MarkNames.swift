import PhotoPickKit

/// The tag name each mark is stored as: `Pick`, `3 stars`, `Red` unless the config's `[cull]` table
/// says otherwise.
public struct MarkNames: Sendable, Equatable {
    private var names: [Mark: String] = [:]

    /// The default names.
    package init() {}

    /// The tag name of a mark.
    public func name(of mark: Mark) -> String {
        names[mark] ?? mark.defaultTagName
    }

    /// Stores a mark under another tag name.
    package mutating func rename(_ mark: Mark, to name: String) {
        names[mark] = name
    }

    /// The mark a `[cull]` key names, such as `pick` or `rating_3`.
    package static func mark(forConfigKey key: String) -> Mark? {
        Mark.all.first { $0.configKey == key }
    }

    /// Two marks under one tag name could not be told apart; the first pair found, if any.
    package var clash: (Mark, Mark)? {
        var seen: [String: Mark] = [:]
        for mark in Mark.all {
            let key = PhotoPickKit.Tag.nameKey(name(of: mark))
            if let other = seen[key] { return (other, mark) }
            seen[key] = mark
        }
        return nil
    }
}
