/// An API key the server accepts, as given by `--key KEY[=scope,scope...][@ip,ip...]`.
public struct KeySpec: Sendable, Equatable {
    /// The secret itself; always starts with `pp_test_`.
    public var key: String
    /// What the key may do; every scope unless limited.
    public var scopes: Set<Scope>
    /// Source addresses allowed to use the key; nil allows any.
    public var allowedIPs: [String]?

    /// A key with all scopes from any address unless told otherwise.
    public init(key: String, scopes: Set<Scope> = Set(Scope.allCases), allowedIPs: [String]? = nil) {
        self.key = key
        self.scopes = scopes
        self.allowedIPs = allowedIPs
    }

    /// Parses `KEY[=scope,scope...][@ip,ip...]`.
    public init(parsing text: String) throws(ServerError) {
        var rest = Substring(text)
        var allowedIPs: [String]?
        if let at = rest.lastIndex(of: "@") {
            allowedIPs = rest[rest.index(after: at)...].split(separator: ",").map(String.init)
            rest = rest[..<at]
            if allowedIPs?.isEmpty ?? true { throw .invalidKey("--key \(Self.redacted(rest)): no address after '@'; list addresses like @127.0.0.1,::1") }
        }
        var scopes = Set(Scope.allCases)
        if let equals = rest.firstIndex(of: "=") {
            scopes = []
            for name in rest[rest.index(after: equals)...].split(separator: ",") {
                guard let scope = Scope(rawValue: String(name)) else {
                    let known = Scope.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidKey("--key \(Self.redacted(rest[..<equals])): unknown scope '\(name)'; use some of: \(known)")
                }
                scopes.insert(scope)
            }
            rest = rest[..<equals]
        }
        guard Self.isWellFormed(rest) else {
            throw .invalidKey("--key: keys must look like pp_test_ followed by 4 or more letters, digits or '_' (the server issues sandbox keys only)")
        }
        self.init(key: String(rest), scopes: scopes, allowedIPs: allowedIPs)
    }

    static func isWellFormed(_ key: Substring) -> Bool {
        guard key.hasPrefix("pp_test_") else { return false }
        let body = key.dropFirst("pp_test_".count)
        return body.count >= 4 && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Enough of a key to recognise it in a message, never the secret part.
    static func redacted(_ key: Substring) -> String {
        key.hasPrefix("pp_test_") ? "pp_test_…" : "(key)"
    }
}
