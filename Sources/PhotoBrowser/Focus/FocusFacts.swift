import Foundation

/// A photo's focus score, and where it stands in its burst when bursts are stacked.
public struct FocusFacts: Sendable, Equatable {
    /// The score (`FocusScore`); higher is sharper.
    public var score: Double
    /// 1 for the sharpest frame of its stack; nil outside a stack.
    var rank: Int?
    /// Frames in its stack, and how many of them are measured.
    var frames = 0, measured = 0

    init(score: Double, rank: Int? = nil, frames: Int = 0, measured: Int = 0) {
        self.score = score
        self.rank = rank
        self.frames = frames
        self.measured = measured
    }

    /// "4.4", or "4.4 · sharpest of 5", "4.4 · 2nd of 5 (3 measured)".
    public var text: String {
        let score = score.formatted(.number.precision(.fractionLength(1)))
        guard let rank, frames > 1 else { return score }
        let place = rank == 1 ? "sharpest" : "\(Self.ordinal(rank))"
        let measuredText = measured < frames ? " (\(measured) measured)" : ""
        return "\(score) · \(place) of \(frames)\(measuredText)"
    }

    private static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}
