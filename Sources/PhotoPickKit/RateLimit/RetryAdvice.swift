import Foundation
import NIOHTTP1

/// What a response says about when to try again.
enum RetryAdvice {
    /// The longest wait a server can ask for; a larger value is taken as this, never trusted to overflow.
    static let longestWait: TimeInterval = 3600

    /// `Retry-After` as delta-seconds or an HTTP-date; without it, and if `orReset`, `X-RateLimit-Reset`.
    ///
    /// The reset only says when the budget refills, so it is a fallback for a 429, not for a 503.
    static func wait(in headers: HTTPHeaders, orReset: Bool = true, now: Date) -> Duration? {
        if let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = digits(value) { return duration(seconds) }
            if let date = HTTPDate.parse(value) { return duration(date.timeIntervalSince(now)) }
        }
        guard orReset else { return nil }
        return resetDate(in: headers, now: now).map { duration($0.timeIntervalSince(now)) }
    }

    /// `X-RateLimit-Reset`: Unix seconds, or (as some servers send) seconds from now when too small to be a date.
    static func resetDate(in headers: HTTPHeaders, now: Date) -> Date? {
        guard let value = headers.first(name: "X-RateLimit-Reset").flatMap({ digits($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        let date = value < 1_000_000_000 ? now.addingTimeInterval(value) : Date(timeIntervalSince1970: value)
        return min(date, now.addingTimeInterval(longestWait))
    }

    /// A whole number of seconds written in ASCII digits only, as RFC 9110 requires; nil for anything else.
    private static func digits(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return TimeInterval(text)
    }

    private static func duration(_ seconds: TimeInterval) -> Duration {
        .milliseconds(Int64(min(max(0, seconds), longestWait) * 1000))
    }
}

/// HTTP-dates (RFC 9110): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
