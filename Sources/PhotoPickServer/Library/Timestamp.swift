import Foundation

/// Formats and parses the two date forms the API uses, on Unix seconds.
enum Timestamp {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2024-06-01T14:03:22Z`, or `2024-06-01T14:03:22.350Z` with a fraction of a second.
    static func iso8601(_ seconds: Int64, milliseconds: Int = 0) -> String {
        let parts = utc(seconds)
        let fraction = milliseconds > 0 ? String(format: ".%03d", milliseconds) : ""
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d",
            parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec
        ) + fraction + "Z"
    }

    /// `Sat, 01 Jun 2024 14:03:22 GMT` (RFC 9110 IMF-fixdate)
    static func httpDate(_ seconds: Int64) -> String {
        let parts = utc(seconds)
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
            weekdays[Int(parts.tm_wday)], parts.tm_mday, months[Int(parts.tm_mon)], parts.tm_year + 1900,
            parts.tm_hour, parts.tm_min, parts.tm_sec
        )
    }

    /// Parses an RFC 3339 date-time (`2024-06-01T14:03:22Z`, `2024-06-01T16:03:22.5+02:00`) strictly:
    /// out-of-range fields such as minute 99 or 31 February are refused, not rolled over.
    /// Fractional seconds are dropped.
    static func parseISO8601(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int, _ expected: Character...) -> Bool {
            index < bytes.count && expected.contains(Character(UnicodeScalar(bytes[index])))
        }
        guard let year = number(0..<4), byte(4, "-"), let month = number(5..<7), byte(7, "-"), let day = number(8..<10),
              byte(10, "T", "t"), let hour = number(11..<13), byte(13, ":"), let minute = number(14..<16), byte(16, ":"),
              let second = number(17..<19),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        if byte(index, ".") {
            index += 1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            guard index > start else { return nil }
        }
        var offset = 0
        if byte(index, "Z", "z") {
            index += 1
        } else if byte(index, "+", "-"), let hours = number((index + 1)..<(index + 3)), byte(index + 3, ":"),
                  let minutes = number((index + 4)..<(index + 6)), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts)) - Int64(offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    private static func utc(_ seconds: Int64) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }
}
