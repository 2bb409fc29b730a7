/// A key as the server knows it while running.
struct APIKeyRecord: Sendable {
    let id: Int
    let name: String
    let spec: KeySpec

    var key: String { spec.key }
}

/// Looks keys up by their secret.
struct KeyRing: Sendable {
    private let byKey: [String: APIKeyRecord]
    let records: [APIKeyRecord]

    init(_ records: [APIKeyRecord]) {
        self.records = records
        byKey = Dictionary(records.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func record(for key: String) -> APIKeyRecord? { byKey[key] }
}
