import Foundation
import NIOHTTP1

/// What a response says about when to try again.
enum RetryAdvice {
    /// `Retry-After` as delta-seconds or an HTTP-date; without it, and if `orReset`, `X-RateLimit-Reset`.
    ///
    /// The reset only says when the budget refills, so it is a fallback for a 429, not for a 503.
    static func wait(in headers: HTTPHeaders, orReset: Bool = true, now: Date = Date()) -> Duration? {
        if let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(value), seconds >= 0 { return .milliseconds(Int64(seconds * 1000)) }
            if let date = HTTPDate.parse(value) { return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000)) }
        }
        guard orReset else { return nil }
        return resetDate(in: headers, now: now).map { .milliseconds(Int64(max(0, $0.timeIntervalSince(now)) * 1000)) }
    }

    /// `X-RateLimit-Reset`: Unix seconds, or (as some servers send) seconds from now when too small to be a date.
    static func resetDate(in headers: HTTPHeaders, now: Date = Date()) -> Date? {
        guard let value = headers.first(name: "X-RateLimit-Reset").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
              value >= 0 else { return nil }
        return value < 1_000_000_000 ? now.addingTimeInterval(value) : Date(timeIntervalSince1970: value)
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
