import Foundation

/// A change to capture times: shift by a duration, or read them as local times of a zone.
public enum TimeAdjustment: Sendable, Equatable {
    /// Adds this many seconds (negative to go back).
    case shift(seconds: Int)
    /// Reads times stored as if UTC as the camera's local time in the zone, DST included: 14:00 in a Prague summer becomes 12:00 UTC.
    case zone(TimeZone)

    /// Typed text that is not an adjustment: one line naming it and an example that works, as any
    /// problem with an edit is told.
    typealias Problem = EditRequest.Problem

    /// The longest shift accepted, 366 days, in seconds.
    static let longestShift = 366 * 86_400
    private static let units = ["d", "h", "m", "s"]
    private static let unitSeconds = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]

    /// Parses a signed shift (`+1h30m`, `-00:14:30`) or a zone (`Europe/Prague`, `zone Europe/Prague`, `tz=Europe/Prague`, `UTC+2`).
    public init(parsing text: String) throws(EditRequest.Problem) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = text.first else {
            throw Problem(description: "nothing typed; write a shift like +1h or a zone like Europe/Prague")
        }
        if first == "+" || first == "-" {
            self = .shift(seconds: try Self.shiftSeconds(text))
        } else if Self.isDigit(first) {
            // No zone name starts with a digit, so this is a shift missing its sign.
            throw Problem(description: "“\(text)”: a shift needs a sign; write +\(text) or -\(text)")
        } else {
            self = .zone(try Self.zone(text))
        }
    }

    /// The new capture time for `date`.
    public func applied(to date: Date) -> Date {
        switch self {
        case .shift(let seconds):
            return date.addingTimeInterval(TimeInterval(seconds))
        case .zone(let zone):
            // The offset in force at the true instant, found from a first guess: an hour repeated at fall-back
            // reads as its second pass, and one skipped at spring-forward lands an hour later.
            let guess = date.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: date)))
            return date.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: guess)))
        }
    }

    /// How it reads on the status line and in confirmations: "+1h 30m", "-14m 30s", "as local time in Europe/Prague".
    public var label: String {
        switch self {
        case .shift(let seconds): Self.duration(seconds)
        case .zone(let zone): "as local time in \(Self.name(of: zone))"
        }
    }

    private static func shiftSeconds(_ text: String) throws(Problem) -> Int {
        let body = text.dropFirst()
        let magnitude = body.contains(":") ? try colonSeconds(body, in: text) : try unitsSeconds(body, in: text)
        guard magnitude != 0 else {
            throw Problem(description: "“\(text)”: a shift of zero changes nothing; write e.g. +1h or -30m")
        }
        guard magnitude <= longestShift else {
            throw Problem(description: "“\(text)” is more than a year; a shift can be at most 366d, e.g. +365d")
        }
        return text.first == "-" ? -magnitude : magnitude
    }

    /// `h:mm` or `h:mm:ss`, as seconds.
    private static func colonSeconds(_ body: Substring, in text: String) throws(Problem) -> Int {
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
              parts.dropFirst().allSatisfy({ $0.count == 2 })
        else { throw Problem(description: "“\(text)”: write h:mm or h:mm:ss, e.g. +1:30 or -0:14:30") }
        let values = parts.map(amount)
        if values[1] >= 60 || values.count == 3 && values[2] >= 60 {
            let field = values[1] >= 60 ? "minutes" : "seconds"
            throw Problem(description: "“\(text)”: \(field) must be under 60; write h:mm or h:mm:ss, e.g. +1:30 or -0:14:30")
        }
        return values[0] * 3_600 + values[1] * 60 + (values.count == 3 ? values[2] : 0)
    }

    /// Amounts with units `d h m s`, each at most once and in that order, as seconds.
    private static func unitsSeconds(_ body: Substring, in text: String) throws(Problem) -> Int {
        var parts: [(amount: Substring, unit: String)] = []
        var rest = body.drop(while: \.isWhitespace)
        while let start = rest.first {
            let digits = rest.prefix(while: isDigit)
            rest = rest.dropFirst(digits.count)
            guard !digits.isEmpty else {
                throw Problem(description: "“\(text)”: “\(start)” needs a whole number before it; write e.g. +1h30m")
            }
            guard let next = rest.first else {
                throw Problem(description: "“\(text)”: \(digits) needs a unit; write e.g. \(text.prefix(1))\(digits)m or \(text.prefix(1))\(digits)s")
            }
            guard next != ".", next != "," else {
                throw Problem(description: "“\(text)”: amounts are whole numbers; write e.g. +1h30m, not +1.5h")
            }
            let unit = next.lowercased()
            guard units.contains(unit) else {
                throw Problem(description: "“\(text)”: “\(next)” is not a unit; use d, h, m or s, e.g. +1d2h3m4s")
            }
            parts.append((digits, unit))
            rest = rest.dropFirst().drop(while: \.isWhitespace)
        }
        guard !parts.isEmpty else {
            throw Problem(description: "“\(text)”: a shift needs an amount; write e.g. +1h or -30m")
        }
        let ranks = parts.map { units.firstIndex(of: $0.unit)! }
        guard zip(ranks, ranks.dropFirst()).allSatisfy(<) else {
            let reordered = parts.sorted { units.firstIndex(of: $0.unit)! < units.firstIndex(of: $1.unit)! }
            let example = Set(ranks).count == ranks.count
                ? text.prefix(1) + reordered.map { $0.amount + $0.unit }.joined() : "+1d2h3m4s"
            throw Problem(description: "“\(text)”: units go d, h, m, s, each at most once; write \(example)")
        }
        return parts.reduce(0) { $0 + amount($1.amount) * unitSeconds[$1.unit]! }
    }

    private static func zone(_ text: String) throws(Problem) -> TimeZone {
        var name = Substring(text)
        let prefix = text.range(of: #"^(zone|tz)(\s*=\s*|\s+)"#, options: [.regularExpression, .caseInsensitive])
        if let prefix { name = text[prefix.upperBound...] }
        let named = String(name)
        guard !named.isEmpty else {
            throw Problem(description: "“\(text)”: name a zone, e.g. zone Europe/Prague")
        }
        guard let zone = try fixedOffset(named, in: text) ?? TimeZone(identifier: named)
            ?? TimeZone.knownTimeZoneIdentifiers.first(where: { $0.caseInsensitiveCompare(named) == .orderedSame })
                .flatMap(TimeZone.init(identifier:))
            ?? TimeZone(identifier: named.uppercased())
        else {
            throw Problem(description: prefix == nil
                ? "“\(text)” is not a shift or a time zone; write e.g. +1h, -0:14:30, Europe/Prague or UTC+2"
                : "“\(text)”: “\(named)” is not a time zone; write e.g. zone Europe/Prague or zone UTC+2")
        }
        // UTC itself (and zones on it since 1970 without DST) would leave every time as it is.
        let epoch = Date(timeIntervalSince1970: 0)
        guard zone.secondsFromGMT(for: epoch) != 0 || zone.nextDaylightSavingTimeTransition(after: epoch) != nil else {
            throw Problem(description: "“\(text)”: times are stored as UTC already, so this changes nothing; name the camera's zone, e.g. Europe/Prague")
        }
        return zone
    }

    /// `UTC±H[:MM]` as a fixed-offset zone, or nil for a name that does not start `UTC+` or `UTC-`.
    private static func fixedOffset(_ name: String, in text: String) throws(Problem) -> TimeZone? {
        guard name.prefix(3).lowercased() == "utc", let sign = name.dropFirst(3).first, sign == "+" || sign == "-" else { return nil }
        let parts = name.dropFirst(4).split(separator: ":", omittingEmptySubsequences: false)
        let problem = Problem(description: "“\(text)” is not an offset; write one from UTC-12 to UTC+14, e.g. UTC+2 or UTC-05:30")
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(isDigit) }), (1...2).contains(parts[0].count),
              parts.count == 1 || parts[1].count == 2
        else { throw problem }
        let minutes = parts.count == 2 ? amount(parts[1]) : 0
        let seconds = (sign == "-" ? -1 : 1) * (amount(parts[0]) * 3_600 + minutes * 60)
        guard minutes < 60, (-12 * 3_600)...(14 * 3_600) ~= seconds, let zone = TimeZone(secondsFromGMT: seconds) else { throw problem }
        return zone
    }

    private static func duration(_ seconds: Int) -> String {
        let magnitude = seconds.magnitude
        let parts = [(magnitude / 86_400, "d"), (magnitude % 86_400 / 3_600, "h"), (magnitude % 3_600 / 60, "m"), (magnitude % 60, "s")]
            .filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }
        return (seconds < 0 ? "-" : "+") + (parts.isEmpty ? "0s" : parts.joined(separator: " "))
    }

    /// A zone's name for people: a fixed offset as `UTC+2` or `UTC-5:30` rather than Foundation's `GMT+0200`.
    private static func name(of zone: TimeZone) -> String {
        guard zone.identifier.hasPrefix("GMT+") || zone.identifier.hasPrefix("GMT-") else { return zone.identifier }
        let seconds = zone.secondsFromGMT()
        let minutes = seconds.magnitude % 3_600 / 60
        return "UTC" + (seconds < 0 ? "-" : "+") + "\(seconds.magnitude / 3_600)" + (minutes == 0 ? "" : ":" + String(format: "%02d", minutes))
    }

    /// A run of digits as a number; more than nine digits is over a year in any unit, so it stops there.
    private static func amount(_ digits: Substring) -> Int {
        digits.count > 9 ? longestShift + 1 : Int(digits) ?? 0
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }
}
