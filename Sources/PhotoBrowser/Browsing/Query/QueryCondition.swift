import Foundation

/// One term of a query, read: what a photo must be to pass it.
enum QueryCondition: Sendable, Equatable {
    /// A free-text word in the filename, title, camera or lens (folded).
    case word([UInt8])
    /// The camera's make or model contains this (folded), or is it, with `exact` (`camera=`).
    case camera([UInt8], exact: Bool)
    /// The lens contains this (folded), or is it, with `exact` (`lens=`).
    case lens([UInt8], exact: Bool)
    case iso(ClosedRange<Double>)
    case aperture(ClosedRange<Double>)
    case focalLength(ClosedRange<Double>)
    /// Bytes of the original.
    case size(ClosedRange<Double>)
    /// Capture time in seconds since 1970, start included, end excluded.
    case taken(Range<Double>)
    /// A tag, by its name key.
    case tag(name: String, key: String)
    /// The focus score (`FocusScore`); a photo not measured yet fails it.
    case sharpness(ClosedRange<Double>)
    /// Stars, 0 for unrated.
    case rating(ClosedRange<Int>)
    case flag(Mark.Flag)
    case label(Mark.ColourLabel)
    case hasLocation, hasCaptureTime, hasTitle
    /// No tags besides marks.
    case untagged
    indirect case not(QueryCondition)

    /// Whether it reads focus scores, so a new score must re-run the filter.
    var readsFocus: Bool {
        switch self {
        case .sharpness: true
        case .not(let inner): inner.readsFocus
        default: false
        }
    }

    /// Whether it reads tags, so a change of the tag list must re-run the filter.
    var readsTags: Bool {
        switch self {
        case .tag, .rating, .flag, .label, .untagged: true
        case .not(let inner): inner.readsTags
        default: false
        }
    }
}
