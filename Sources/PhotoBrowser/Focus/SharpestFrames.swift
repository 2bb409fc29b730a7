/// "Pick the sharpest of each stack": for every burst among the photos listed, the frame with the best
/// focus score. Bursts are found as stacking finds them (`burst_gap`), whether or not they are stacked.
public struct SharpestFrames: Sendable, Equatable {
    /// The sharpest frame of each burst with a measured frame, as library indices, in list order.
    public var winners: [Int] = []
    /// How many of the winners are picked already.
    public var alreadyPicked = 0
    /// Bursts with some frames not measured yet: their winner is the best of those measured.
    public var partlyMeasured = 0
    /// Bursts with no frame measured: nothing is picked in them.
    public var unmeasured = 0

    /// How many bursts there are in all.
    var bursts: Int { winners.count + unmeasured }
}

extension BrowserState {
    /// The sharpest frame of each burst among the photos listed now.
    public func sharpestFrames() -> SharpestFrames {
        let listed = list.libraryIndices
        // A closed stack lists only its cover; its other frames count when the filter lets them through.
        let passes = list.filter.matcher(library: library, selection: selection)
        let stacks = BurstStacks(library, gap: burstGap, count: library.storedCount)
        var result = SharpestFrames()
        var seen = Set<Int>()
        for index in listed {
            guard let stack = stacks.stack(of: index), seen.insert(stack).inserted else { continue }
            let frames = stacks.members(of: stack).filter(passes)
            guard frames.count > 1 else { continue }
            let measured = frames.compactMap { frame in library.focusScore(at: frame).map { (frame, $0) } }
            guard let best = measured.max(by: { $0.1 < $1.1 }) else {
                result.unmeasured += 1
                continue
            }
            if measured.count < frames.count { result.partlyMeasured += 1 }
            if marks(at: best.0).flag == .pick { result.alreadyPicked += 1 }
            result.winners.append(best.0)
        }
        return result
    }

    /// Picks the sharpest frame of each burst listed, as one undoable edit.
    mutating func pickSharpestFrames() -> [BrowserEffect] {
        let plan = sharpestFrames()
        let targets = plan.winners.filter { marks(at: $0).flag != .pick }
        guard !targets.isEmpty else {
            if plan.bursts == 0 { return post(.info, "No bursts among the photos listed.") }
            if plan.winners.isEmpty {
                return post(.info, "No frame of the \(plan.bursts) burst\(plan.bursts == 1 ? "" : "s") listed is measured yet: look at the frames (a preview measures its focus), then ask again.")
            }
            return post(.info, "The sharpest frame of every burst measured is picked already.")
        }
        let effects = setMark(.flag(.pick), on: targets)
        let skipped = plan.unmeasured == 0 ? "" : " \(plan.unmeasured) burst\(plan.unmeasured == 1 ? " has" : "s have") no frame measured yet."
        return effects + post(.info, "Picked the sharpest frame of \(targets.count) burst\(targets.count == 1 ? "" : "s").\(skipped)")
    }
}
