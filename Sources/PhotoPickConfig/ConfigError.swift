/// A config file photopick cannot use, as one line naming the file, line, key and fix. Nobody
/// branches on it: it is printed, so it is a plain struct with no code.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public let file: String
    /// The 1-based line of the problem, when it has one.
    public let line: Int?
    /// The full dotted key, when the problem belongs to one.
    public let key: String?
    /// What is wrong and how to fix it, lower-case first.
    public let reason: String

    /// An error at a place in a file.
    public init(file: String, line: Int?, key: String?, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `/home/ana/.config/photopick/config.toml:3, key keys.down: "ctrl-dd" is not a key; …`
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let key { place += ", key \(key)" }
        return "\(place): \(reason)"
    }
}
