import Foundation

/// One measured figure beside its reference, measured in the same run. A figure with no samples is
/// not a number: JSON gets `null` and a `note` saying so, never a trap on `inf`.
struct Figure: Encodable {
    let name: String
    let value: Double
    let unit: String
    let reference: String
    let referenceValue: Double
    let ratio: Double
    /// Such as `"<= 1.0 ratio"` or `"<= 40 MB"`.
    let target: String
    let met: Bool
    /// Why a value is missing, when it is.
    var note: String?

    private enum CodingKeys: String, CodingKey { case name, value, unit, reference, referenceValue, ratio, target, met, note }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(reference, forKey: .reference)
        try container.encode(target, forKey: .target)
        try container.encode(met && value.isFinite, forKey: .met)
        for (key, number) in [(CodingKeys.value, value), (.referenceValue, referenceValue), (.ratio, ratio)] {
            if number.isFinite { try container.encode(number, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
        let missing = !value.isFinite ? "no value: nothing was measured (no samples)" : (!referenceValue.isFinite ? "no reference: nothing was measured (no samples)" : nil)
        try container.encodeIfPresent(note ?? missing, forKey: .note)
    }

    /// The figure at the large size, its reference the same figure at the small one, both from this run.
    static func beside(_ name: String, large: Double, small: Double, sizes: BenchSizes, unit: String, target: Double) -> Figure {
        Figure(name: "\(name) at \(sizes.largeLabel)", value: large, unit: unit, reference: "at \(sizes.smallLabel)",
               referenceValue: small, ratio: large / target, target: "<= \(target.formatted(.number.grouping(.never))) \(unit)",
               met: large <= target)
    }
    /// A figure against a fixed budget: met at or under it.
    static func within(_ budget: Double, _ name: String, _ value: Double, unit: String) -> Figure {
        Figure(name: name, value: value, unit: unit, reference: "budget", referenceValue: budget,
               ratio: value / budget, target: "<= \(budget.formatted(.number.grouping(.never))) \(unit)", met: value <= budget)
    }
}

/// Prints figures as a table, or as `{"figures": [...]}` with `--json`.
enum Report {
    static func print(_ figures: [Figure], json: Bool) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            struct Wrapper: Encodable { let figures: [Figure] }
            Swift.print(String(decoding: try! encoder.encode(Wrapper(figures: figures)), as: UTF8.self))
            return
        }
        for figure in figures {
            let line = String(
                format: "%-44@ %10.2f %-5@  %-22@ %10.2f  ratio %5.2f  target %-14@ %@",
                figure.name as NSString, figure.value, figure.unit as NSString, figure.reference as NSString,
                figure.referenceValue, figure.ratio, figure.target as NSString,
                (figure.value.isNaN ? "not measured" : figure.met ? "met" : "NOT MET") as NSString
            )
            Swift.print(line + (figure.note.map { "  (\($0))" } ?? (figure.value.isFinite ? "" : "  (no samples)")))
        }
    }
}

/// Progress notes go to stderr, so `--json` output stays one object.
func note(_ text: String) {
    FileHandle.standardError.write(Data("photopick-bench: \(text)\n".utf8))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

extension Duration {
    /// In seconds, with the fraction.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// The sizes a benchmark runs at: the one asked for and, beside it, 100,000 photos, in one run, so each
/// figure at a million has its figure at the reference size measured on the same build and machine.
struct BenchSizes {
    let large: Int
    let small: Int

    init(photos: Int, beside: Int = 100_000) {
        large = photos
        small = min(photos, beside)
    }

    /// Every size to run, the small one first.
    var all: [Int] { small == large ? [large] : [small, large] }
    var largeLabel: String { large.formatted() + " photos" }
    var smallLabel: String { small.formatted() }
}
