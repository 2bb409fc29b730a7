import Foundation

/// Sizes, counts and times as people write them, the one way every screen, verb and message writes
/// them: "5.4 MB", "0 B" (never Foundation's "Zero kB"), "1 photo", "2,000 photos", "no photos", "40 min",
/// "0:42". Machine output (`--json`) carries the plain numbers instead: bytes, counts, seconds.
public enum Figures {
    /// "5.4 MB", in decimal units as file managers show them; "0 B" for nothing.
    public static func bytes(_ bytes: Int64) -> String {
        bytes == 0 ? "0 B" : bytes.formatted(.byteCount(style: .file))
    }

    /// "1 photo", "2,000 photos", "no photos": a count with its noun, grouped as the locale groups digits.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        switch count {
        case 0: "no \(plural ?? singular + "s")"
        case 1: "1 \(singular)"
        default: "\(count.formatted()) \(plural ?? singular + "s")"
        }
    }

    /// "40 min", "5 h 20 min", "2 d 7 h": a long wait, to the unit that matters (a minute at least).
    public static func span(minutes: Int) -> String {
        let (days, hours, rest) = (minutes / 1440, minutes / 60 % 24, minutes % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return rest > 0 ? "\(hours) h \(rest) min" : "\(hours) h" }
        return "\(max(1, rest)) min"
    }

    /// "0:42", "12:05", "1:02:03", as a countdown reads; "--:--" when unknown.
    public static func clock(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let secondsText = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secondsText)" }
        return "\(minutes):\(secondsText)"
    }

    /// "350 ms", "45 s": a short time taken, in whole units, the same in every locale.
    public static func elapsed(milliseconds: Int) -> String {
        milliseconds < 1000 ? "\(milliseconds) ms" : "\(milliseconds / 1000) s"
    }
}
