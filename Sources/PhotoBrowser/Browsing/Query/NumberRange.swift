/// Reads the value of a numeric term into a closed range: `3200` with `>=`, `50..85`, `..2.8`, `10MB`.
enum NumberRange {
    static func read(
        _ value: String, _ comparison: String, field: String, example: String, unit: String = "", bytes: Bool = false
    ) throws(PhotoQuery.Refusal) -> ClosedRange<Double> {
        func number(_ text: Substring) throws(PhotoQuery.Refusal) -> Double {
            var text = text.lowercased()[...]
            if !unit.isEmpty, text.hasSuffix(unit) { text = text.dropLast(unit.count) }
            var scale = 1.0
            if bytes {
                for (suffix, factor) in [("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("k", 1e3), ("m", 1e6), ("g", 1e9), ("b", 1.0)] where text.hasSuffix(suffix) {
                    text = text.dropLast(suffix.count)
                    scale = factor
                    break
                }
            }
            guard let parsed = Double(text), parsed.isFinite else {
                throw PhotoQuery.Refusal("“\(value)” is not a number; write it like \(example)")
            }
            // Far beyond any photo's figure, and it keeps a range's ends finite and in order.
            guard abs(parsed * scale) < 1e15 else { throw PhotoQuery.Refusal("“\(value)” is too large; write it like \(example)") }
            return parsed * scale
        }
        guard !value.isEmpty else { throw PhotoQuery.Refusal("\(field)\(comparison) needs a number, like \(example)") }
        let unbounded = Double.greatestFiniteMagnitude
        // A strict comparison starts at the next number a Double holds, above or below.
        switch comparison {
        case ">=": return try number(value[...])...unbounded
        case ">": return try number(value[...]).nextUp...unbounded
        case "<=": return -unbounded...(try number(value[...]))
        case "<": return -unbounded...(try number(value[...]).nextDown)
        default:
            guard let dots = value.range(of: "..") else {
                let exact = try number(value[...])
                return exact...exact
            }
            let low = value[..<dots.lowerBound], high = value[dots.upperBound...]
            let lower = low.isEmpty ? -unbounded : try number(low)
            let upper = high.isEmpty ? unbounded : try number(high)
            guard lower <= upper else { throw PhotoQuery.Refusal("\(value): the range runs backwards; write the smaller number first") }
            return lower...upper
        }
    }
}
