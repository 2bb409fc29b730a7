import Foundation

/// HTTP dates (`Last-Modified`, `Retry-After`, `Sunset`) on Unix seconds; ISO 8601 is `PhotoPickFormats.ISO8601`.
enum Timestamp {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sat, 01 Jun 2024 14:03:22 GMT` (RFC 9110 IMF-fixdate)
    static func httpDate(_ seconds: Int64) -> String {
        let parts = utc(seconds)
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
            weekdays[Int(parts.tm_wday)], parts.tm_mday, months[Int(parts.tm_mon)], parts.tm_year + 1900,
            parts.tm_hour, parts.tm_min, parts.tm_sec
        )
    }

    private static func utc(_ seconds: Int64) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }
}
