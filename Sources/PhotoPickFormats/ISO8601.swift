import Foundation

/// ISO 8601 date-times as the API writes them: `2024-06-01T14:03:22Z`, `…22.350Z`, `…+02:00`.
///
/// Hand-written because a library walk parses two dates per photo, and a format style would cost
/// more than the rest of the photo's decoding. The client reads leniently (`date(from:)`); the server
/// refuses anything RFC 3339 does not allow (`seconds(from:)`).
public enum ISO8601 {
    /// Parses `2024-06-01T14:03:22Z`, `2024-06-01T14:03:22.123Z` or `2024-06-01T16:03:22+02:00`, also
    /// with a space for the `T`, a comma for the point, an offset without its colon, or second 60.
    public static func date(from text: String) -> Date? {
        guard let parsed = parse(text, strictly: false) else { return nil }
        return Date(timeIntervalSince1970: Double(parsed.seconds) + parsed.fraction)
    }

    /// Parses an RFC 3339 date-time strictly to whole Unix seconds, dropping a fraction: out-of-range
    /// fields such as minute 99 or 31 February are refused, not rolled over.
    public static func seconds(from text: String) -> Int64? {
        parse(text, strictly: true)?.seconds
    }

    /// Parses an RFC 3339 date-time strictly to Unix seconds and the milliseconds after them (a finer
    /// fraction is truncated), as the server keeps capture times.
    public static func milliseconds(from text: String) -> (seconds: Int64, milliseconds: Int)? {
        guard let parsed = parse(text, strictly: true) else { return nil }
        // The tiny nudge keeps `.123` from reading as 122.99999 milliseconds.
        return (parsed.seconds, min(999, Int((parsed.fraction * 1000 + 1e-6).rounded(.down))))
    }

    /// `2024-06-01T14:03:22Z`, or `2024-06-01T14:03:22.350Z` when `milliseconds` is more than 0.
    public static func string(seconds: Int64, milliseconds: Int = 0) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: Int(days))
        let whole = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(time / 3600, 2) + ":" + padded(time / 60 % 60, 2) + ":" + padded(time % 60, 2)
        return whole + (milliseconds > 0 ? "." + padded(milliseconds, 3) : "") + "Z"
    }

    /// The date to the nearest millisecond, with the fraction only when there is one.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return string(seconds: seconds, milliseconds: Int(milliseconds - seconds * 1000))
    }

    private static func padded(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return text.count < digits ? String(repeating: "0", count: digits - text.count) + text : text
    }
}
