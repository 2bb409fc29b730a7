import Foundation

/// A focus score the loupe took at 100% (`FocusScore.measureAtFullSize`), and where: scores at 100%
/// are compared only when taken over the same part of pictures of one size.
package struct FullSizeFocus: Sendable, Equatable {
    /// The part of the upright original measured, and the original's size, in pixels.
    package struct Spot: Sendable, Hashable {
        package var x, y, width, height, imageWidth, imageHeight: Int

        package init(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int) {
            (self.x, self.y, self.width, self.height, self.imageWidth, self.imageHeight) = (x, y, width, height, imageWidth, imageHeight)
        }
    }

    /// The score; higher is sharper, on a scale of its own.
    package var score: Double
    package var spot: Spot

    package init(score: Double, spot: Spot) {
        self.score = score
        self.spot = spot
    }
}

/// A photo's focus scores, and where it stands in its burst when bursts are stacked.
public struct FocusFacts: Sendable, Equatable {
    /// The score of its rendition (`FocusScore`); higher is sharper. Nil when only the loupe measured it.
    public var score: Double?
    /// The loupe's score at 100%, when it looked at the photo this session.
    package var atFullSize: Double?
    /// 1 for the sharpest frame of its stack; nil outside a stack.
    var rank: Int?
    /// Frames in its stack, and how many of them are measured (at 100% over the same part, when
    /// `isRankedAtFullSize`).
    var frames = 0, measured = 0
    /// Whether the rank is among the loupe's scores at 100% rather than the renditions'.
    var isRankedAtFullSize = false

    init(score: Double?, atFullSize: Double? = nil, rank: Int? = nil, frames: Int = 0, measured: Int = 0) {
        self.score = score
        self.atFullSize = atFullSize
        self.rank = rank
        self.frames = frames
        self.measured = measured
    }

    /// "4.4", "4.4 · 31.2 at 100%", "4.4 · sharpest of 5", "4.4 · 2nd of 5 (3 measured)",
    /// "4.4 · 31.2 at 100% · sharpest of 5 at 100%".
    public var text: String {
        let figures = [score.map(Self.figure), atFullSize.map { "\(Self.figure($0)) at 100%" }].compactMap { $0 }.joined(separator: " · ")
        guard let rank, frames > 1 else { return figures }
        let place = rank == 1 ? "sharpest" : "\(Self.ordinal(rank))"
        let measuredText = measured < frames ? " (\(measured) measured)" : ""
        return "\(figures) · \(place) of \(frames)\(isRankedAtFullSize ? " at 100%" : "")\(measuredText)"
    }

    /// What the loupe's caption says of its focus at 100%: "sharp 31.2 here", and "· 2nd of 5" when it
    /// is ranked among frames measured over the same part. Nil until the loupe measured it.
    package var loupeText: String? {
        guard let atFullSize else { return nil }
        let here = "sharp \(Self.figure(atFullSize)) here"
        guard isRankedAtFullSize, let rank, frames > 1 else { return here }
        return "\(here) · \(rank == 1 ? "sharpest" : Self.ordinal(rank)) of \(frames)\(measured < frames ? " (\(measured) measured)" : "")"
    }

    private static func figure(_ score: Double) -> String {
        score.formatted(.number.precision(.fractionLength(1)))
    }

    private static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}
