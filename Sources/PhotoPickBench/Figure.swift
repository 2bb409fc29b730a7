import Foundation

/// One measured figure beside its reference, measured in the same run.
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
                format: "%-28@ %10.2f %-5@  %-22@ %10.2f  ratio %5.2f  target %-14@ %@",
                figure.name as NSString, figure.value, figure.unit as NSString, figure.reference as NSString,
                figure.referenceValue, figure.ratio, figure.target as NSString, (figure.met ? "met" : "NOT MET") as NSString
            )
            Swift.print(line)
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
