/// A range being selected by moving the cursor from an anchor, as in vim's visual mode.
struct VisualRange: Sendable, Equatable {
    /// Where the range started, as a position in the filtered list.
    internal(set) var anchor: Int
    /// The photo the range started on, to find the anchor again when photos arrive before it.
    let anchorIndex: Int
    /// The selection from before the range, restored where the range retreats and on cancel.
    let base: Selection
    /// The positions currently covered.
    var covered: ClosedRange<Int>
}
