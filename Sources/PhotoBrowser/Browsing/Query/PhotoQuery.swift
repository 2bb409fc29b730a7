import Foundation
import PhotoPickKit

/// A query typed after `/`: free text plus field terms (`camera:gr`, `iso>=3200`, `#Travel`,
/// `rating>=3`, `-reject`), all of which must hold. A term that cannot be read is kept as a problem
/// with its reason, and the rest still filters: every input reads as something.
public struct PhotoQuery: Sendable, Equatable {
    /// A term that could not be read, and why.
    public struct Problem: Sendable, Equatable {
        /// The term as typed.
        package let token: QueryToken
        /// Why, as a line for the user.
        public let reason: String
        /// The term as typed, quotes removed.
        public var term: String { token.text }
        /// Where the term begins in the query, in characters.
        public var offset: Int { token.offset }
        /// How long the term is in the query, in characters, quotes included.
        public var length: Int { token.length }
    }

    /// The text as typed.
    let text: String
    /// The terms read, in order.
    let conditions: [QueryCondition]
    /// The terms not read.
    public let problems: [Problem]

    /// Whether it filters nothing out.
    var isEmpty: Bool { conditions.isEmpty }

    /// Whether it reads tags or marks.
    var readsTags: Bool { conditions.contains(where: \.readsTags) }

    /// Whether it reads focus scores.
    var readsFocus: Bool { conditions.contains(where: \.readsFocus) }

    /// The fields a term can name, as the error for an unknown one lists them.
    static let fields = ["camera", "lens", "iso", "f", "focal", "taken", "size", "rating", "label", "has", "sharp"]

    /// Reads `text`; dates are days in `timeZone`, the one capture times are shown in.
    package init(_ text: String, timeZone: TimeZone = .current) {
        self.text = text
        var conditions: [QueryCondition] = []
        var problems: [Problem] = []
        for token in QueryToken.split(text) {
            switch Self.read(token, timeZone: timeZone) {
            case .success(let condition): conditions.append(condition)
            case .failure(let problem): problems.append(Problem(token: token, reason: problem.reason))
            }
        }
        self.conditions = conditions
        self.problems = problems
    }

    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func read(_ token: QueryToken, timeZone: TimeZone) -> Result<QueryCondition, Refusal> {
        if token.isQuoted {
            return .success(.word(SearchFolding.fold(token.text)))
        }
        var text = Substring(token.text)
        var negated = false
        if text.hasPrefix("-"), text.count > 1 {
            negated = true
            text = text.dropFirst()
        }
        do {
            let condition = try term(text, timeZone: timeZone)
            return .success(negated ? .not(condition) : condition)
        } catch {
            return .failure(error)
        }
    }

    private static func term(_ text: Substring, timeZone: TimeZone) throws(Refusal) -> QueryCondition {
        if text.hasPrefix("#") {
            let name = text.dropFirst().trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw Refusal("# needs a tag name, like #Travel") }
            return .tag(name: name, key: PhotoPickKit.Tag.nameKey(name))
        }
        switch text.lowercased() {
        case "pick", "picked": return .flag(.pick)
        case "reject", "rejected": return .flag(.reject)
        case "untagged": return .untagged
        default: break
        }
        guard let (field, comparison, value) = split(text) else { return .word(SearchFolding.fold(String(text))) }
        switch field {
        case "camera", "lens":
            guard comparison == ":" || comparison == "=" else { throw Refusal("\(field) takes a name, like \(field):\(field == "camera" ? "gr" : "zuiko")") }
            guard !value.isEmpty else { throw Refusal("\(field): needs a name, like \(field):\(field == "camera" ? "gr" : "zuiko")") }
            let folded = SearchFolding.fold(value)
            // `camera:gr` is any camera whose name holds "gr"; `camera="GR III"` that camera alone.
            return field == "camera" ? .camera(folded, exact: comparison == "=") : .lens(folded, exact: comparison == "=")
        case "iso": return .iso(try NumberRange.read(value, comparison, field: field, example: "iso>=3200"))
        case "f": return .aperture(try NumberRange.read(value, comparison, field: field, example: "f<=2.8"))
        case "focal": return .focalLength(try NumberRange.read(value, comparison, field: field, example: "focal:50..85", unit: "mm"))
        case "size": return .size(try NumberRange.read(value, comparison, field: field, example: "size>10MB", bytes: true))
        case "rating":
            let range = try NumberRange.read(value, comparison, field: field, example: "rating>=3")
            guard range.lowerBound <= 5, range.upperBound >= 0 else { throw Refusal("ratings go from 0 (unrated) to 5") }
            // Clamped before converting: an open end is the largest Double, which no Int holds.
            let low = Int(max(0, range.lowerBound).rounded(.up)), high = Int(min(5, range.upperBound).rounded(.down))
            guard low <= high else { throw Refusal("ratings are whole stars: no rating lies in \(value); write it like rating>=3") }
            return .rating(low...high)
        case "taken": return .taken(try DayRange.read(value, comparison, timeZone: timeZone))
        case "sharp": return .sharpness(try NumberRange.read(value, comparison, field: field, example: "sharp>=4"))
        case "label":
            guard comparison == ":" || comparison == "=" else { throw Refusal("label takes a colour, like label:red") }
            if let label = Mark.ColourLabel(rawValue: value.lowercased()) { return .label(label) }
            throw Refusal("“\(value)” is not a label; use \(Mark.ColourLabel.allCases.map(\.rawValue).joined(separator: ", "))")
        case "has":
            switch value.lowercased() {
            case "gps", "location": return .hasLocation
            case "date", "time": return .hasCaptureTime
            case "title": return .hasTitle
            default: throw Refusal("has: takes gps, date or title")
            }
        default:
            throw Refusal("no field is called “\(field)”; the fields are \(fields.joined(separator: ", ")), or quote it to search for it")
        }
    }

    /// `field`, the comparison and the value of `iso>=3200`, `camera:gr` or `focal:50..85`; nil for
    /// plain words.
    private static func split(_ text: Substring) -> (field: String, comparison: String, value: String)? {
        guard let at = text.firstIndex(where: { ":=<>".contains($0) }), at != text.startIndex else { return nil }
        let field = text[..<at].lowercased()
        guard field.allSatisfy(\.isLetter) else { return nil }
        var rest = text[at...]
        var comparison = String(rest.removeFirst())
        if (comparison == "<" || comparison == ">"), rest.first == "=" {
            comparison.append(rest.removeFirst())
        }
        return (field, comparison, String(rest))
    }
}
