import Foundation

/// Formats and parses the two date forms the API uses, on Unix seconds.
enum Timestamp {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2024-06-01T14:03:22Z`
    static func iso8601(_ seconds: Int64) -> String {
        let parts = utc(seconds)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
            parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec
        )
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

    /// Parses ISO 8601 with or without fractional seconds and with any offset; the fraction is dropped.
    static func parseISO8601(_ text: String) -> Int64? {
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(text) { return Int64(date.timeIntervalSince1970.rounded(.down)) }
        }
        return nil
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    private static func utc(_ seconds: Int64) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }
}
