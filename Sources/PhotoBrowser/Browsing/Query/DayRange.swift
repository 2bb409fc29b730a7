import Foundation

/// Reads `taken:` values: a year, a month or a day (`2024`, `2024-06`, `2024-06-01`), a range of them
/// (`2024-06-01..2024-08-31`, both ends included), or a comparison (`taken>=2024-06`).
enum DayRange {
    static func read(_ value: String, _ comparison: String, timeZone: TimeZone) throws(PhotoQuery.Refusal) -> Range<Double> {
        guard !value.isEmpty else { throw PhotoQuery.Refusal("taken\(comparison) needs a date, like taken:2024-06") }
        let unbounded = Double.greatestFiniteMagnitude
        switch comparison {
        case ">=": return try period(value, timeZone).lowerBound..<unbounded
        case ">": return try period(value, timeZone).upperBound..<unbounded
        case "<=": return -unbounded..<(try period(value, timeZone).upperBound)
        case "<": return -unbounded..<(try period(value, timeZone).lowerBound)
        default:
            guard let dots = value.range(of: "..") else { return try period(value, timeZone) }
            let low = value[..<dots.lowerBound], high = value[dots.upperBound...]
            let start = low.isEmpty ? -unbounded : try period(String(low), timeZone).lowerBound
            let end = high.isEmpty ? unbounded : try period(String(high), timeZone).upperBound
            guard start < end else { throw PhotoQuery.Refusal("\(value): the range runs backwards; write the earlier date first") }
            return start..<end
        }
    }

    /// The seconds a year, month or day covers.
    private static func period(_ text: String, _ timeZone: TimeZone) throws(PhotoQuery.Refusal) -> Range<Double> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0) }
        guard (1...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }), parts[0].count == 4,
              parts.dropFirst().allSatisfy({ (1...2).contains($0.count) })
        else { throw PhotoQuery.Refusal("“\(text)” is not a date; write 2024, 2024-06 or 2024-06-01") }
        let year = numbers[0]!, month = parts.count > 1 ? numbers[1]! : 1, day = parts.count > 2 ? numbers[2]! : 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        guard (1...12).contains(month), let start = calendar.date(from: components),
              calendar.component(.day, from: start) == day, calendar.component(.month, from: start) == month
        else { throw PhotoQuery.Refusal("“\(text)” is not a day of the calendar") }
        let length: Calendar.Component = parts.count == 1 ? .year : parts.count == 2 ? .month : .day
        guard let end = calendar.date(byAdding: length, value: 1, to: start) else {
            throw PhotoQuery.Refusal("“\(text)” is out of range")
        }
        return start.timeIntervalSince1970..<end.timeIntervalSince1970
    }
}
