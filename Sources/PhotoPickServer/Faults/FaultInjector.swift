import NIOConcurrencyHelpers

/// Decides, reproducibly, which requests get a fault.
///
/// The n-th request for a given method and resource always gets the same verdict for a given
/// seed, however requests for other resources interleave with it, so concurrent clients see
/// repeatable runs. The resource is the path and the query without the parts that change from
/// run to run (a signed URL's `expires` and `signature`, a `cursor`): the third page of a walk
/// and the retry of a download are the same resource every time.
final class FaultInjector: Sendable {
    private let rate: Double
    private let kinds: [FaultKind]
    private let seed: UInt64
    private let occurrences = NIOLockedValueBox([String: UInt64]())

    init(rate: Double, kinds: Set<FaultKind>, seed: UInt64) {
        self.rate = rate
        self.kinds = FaultKind.allCases.filter(kinds.contains)
        self.seed = seed
    }

    var isActive: Bool { rate > 0 && !kinds.isEmpty }

    /// Query parameters that differ between runs for the same request.
    static let volatileParameters: Set<Substring> = ["expires", "signature", "cursor"]

    /// The fault for this request, if any, drawn from the kinds that make sense for it.
    func fault(method: String, path: String, query: String?, isFileBody: Bool) -> FaultKind? {
        guard isActive else { return nil }
        let stableQuery = (query ?? "").split(separator: "&").filter { parameter in
            !Self.volatileParameters.contains(parameter.split(separator: "=", maxSplits: 1).first ?? "")
        }
        let signature = method + " " + path + "?" + stableQuery.joined(separator: "&")
        let occurrence = occurrences.withLockedValue { counts -> UInt64 in
            let value = counts[signature, default: 0]
            counts[signature] = value + 1
            return value
        }
        var random = SeededRandom(seed: seed ^ Self.fnv1a(signature), stream: occurrence)
        guard random.chance(rate) else { return nil }
        let applicable = kinds.filter { $0 != .truncate || isFileBody }
        return applicable.randomElement(using: &random)
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
