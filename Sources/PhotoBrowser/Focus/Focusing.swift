/// What the user asks of looking closely.
public enum FocusEvent: Sendable {
    /// Pick the sharpest frame of each burst listed (`SharpestFrames`).
    case sharpestFramesPicked
}

/// What the previews report of the photos they decoded: only the session sends these.
package enum FocusReport: Sendable {
    /// A rendition of the photo was decoded and its focus measured (`FocusScore`).
    case focusMeasured(photoID: Int, score: Double)
}

/// Looking closely: each photo's focus score, and the sharpest frame of each burst. A room of its own
/// because its facts come from the pixels the previews decode, not from the server; the scores are
/// kept with the photos, so it holds nothing itself, and marking the winners is the tags' business.
struct Focusing: Sendable {
    /// What the parent passes to find bursts and what is listed.
    struct Context {
        let list: PhotoList
        let selection: Selection
        let burstGap: Double
        let tags: TagCatalog
    }

    func receive(_ report: FocusReport, _ shared: inout Shared) -> [BrowserEffect] {
        switch report {
        case .focusMeasured(let photoID, let score):
            // Kept, in the catalogue too when it changed; a query that reads scores filters again (the
            // parent sees the library's change).
            guard let index = shared.library.index(ofID: photoID), shared.library.setFocusScore(score, at: index) else { return [] }
            return [.saveFocusScore(photoID: photoID, score: score)]
        }
    }

    func reduce(_ event: FocusEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        case .sharpestFramesPicked:
            // The winners are picked as one undoable edit, by the tags' room; the line comes after its own.
            let plan = sharpestFrames(shared.library, context)
            let targets = plan.winners.filter { context.tags.marks(of: shared.library.tagIDs(at: $0)).flag != .pick }
            guard !targets.isEmpty else { return shared.post(.info, nothingToPick(plan)) }
            shared.news.marking = News.Marking(mark: .flag(.pick), photos: targets, line: picked(targets.count, of: plan))
            return []
        }
    }

    /// The sharpest frame of each burst among the photos listed now.
    func sharpestFrames(_ library: PhotoLibrary, _ context: Context) -> SharpestFrames {
        let listed = context.list.libraryIndices
        // A closed stack lists only its cover; its other frames count when the filter lets them through.
        let passes = context.list.filter.matcher(library: library, selection: context.selection)
        let stacks = BurstStacks(library, gap: context.burstGap)
        var result = SharpestFrames()
        var seen = Set<Int>()
        for index in listed {
            guard let stack = stacks.stack(of: index), seen.insert(stack).inserted else { continue }
            let frames = stacks.members(of: stack).filter(passes.matches)
            guard frames.count > 1 else { continue }
            let measured = frames.compactMap { frame in library.focusScore(at: frame).map { (frame, $0) } }
            guard let best = measured.max(by: { $0.1 < $1.1 }) else {
                result.unmeasured += 1
                continue
            }
            if measured.count < frames.count { result.partlyMeasured += 1 }
            if context.tags.marks(of: library.tagIDs(at: best.0)).flag == .pick { result.alreadyPicked += 1 }
            result.winners.append(best.0)
        }
        return result
    }

    /// The line for a plan with nothing to pick.
    private func nothingToPick(_ plan: SharpestFrames) -> String {
        if plan.bursts == 0 { return "No bursts among the photos listed." }
        if plan.winners.isEmpty {
            return "No frame of the \(plan.bursts) burst\(plan.bursts == 1 ? "" : "s") listed is measured yet: look at the frames (a preview measures its focus), then ask again."
        }
        return "The sharpest frame of every burst measured is picked already."
    }

    /// The line once `count` winners are picked.
    private func picked(_ count: Int, of plan: SharpestFrames) -> String {
        let skipped = plan.unmeasured == 0 ? "" : " \(plan.unmeasured) burst\(plan.unmeasured == 1 ? " has" : "s have") no frame measured yet."
        return "Picked the sharpest frame of \(count) burst\(count == 1 ? "" : "s").\(skipped)"
    }

    /// The focus score of the photo at a library index, with its place in its burst when bursts are
    /// stacked; nil until one of its renditions is measured.
    func facts(at index: Int, _ library: PhotoLibrary, list: PhotoList) -> FocusFacts? {
        guard let score = library.focusScore(at: index) else { return nil }
        guard list.stackGap != nil, let stack = list.stacks.stack(of: index) else { return FocusFacts(score: score) }
        let frames = list.stacks.members(of: stack)
        let scores = frames.compactMap { library.focusScore(at: $0) }
        return FocusFacts(score: score, rank: 1 + scores.filter { $0 > score }.count, frames: frames.count, measured: scores.count)
    }
}
