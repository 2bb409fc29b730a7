/// What the user asks of looking closely.
public enum FocusEvent: Sendable {
    /// Pick the sharpest frame of each burst listed (`SharpestFrames`).
    case sharpestFramesPicked
}

/// What the previews report of the photos they decoded: only the session sends these.
package enum FocusReport: Sendable {
    /// A rendition of the photo was decoded and its focus measured (`FocusScore`).
    case focusMeasured(photoID: Int, score: Double)
    /// The loupe showed part of the photo's original at 100% and measured its focus there.
    case focusMeasuredAtFullSize(photoID: Int, FullSizeFocus)
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
        case .focusMeasuredAtFullSize(let photoID, let focus):
            // For this session: the pane and `B` read it; no filter does (another scale).
            guard shared.library.index(ofID: photoID) != nil else { return [] }
            shared.library.setFullSizeFocus(focus, ofID: photoID)
            return []
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
            if let best = sharpestAtFullSize(frames, library) {
                result.judgedAtFullSize += 1
                if context.tags.marks(of: library.tagIDs(at: best)).flag == .pick { result.alreadyPicked += 1 }
                result.winners.append(best)
                continue
            }
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

    /// The sharpest of `frames` as the loupe saw them, when it measured every one at 100% over the same
    /// part of the picture (as walking a burst in the loupe, or comparing it, does); else nil, and the
    /// renditions' scores decide.
    private func sharpestAtFullSize(_ frames: [Int], _ library: PhotoLibrary) -> Int? {
        let measured = frames.compactMap { frame in library.fullSizeFocus(ofID: library.id(at: frame)).map { (frame, $0) } }
        guard measured.count == frames.count, let spot = measured.first?.1.spot, measured.allSatisfy({ $0.1.spot == spot }) else { return nil }
        return measured.max { $0.1.score < $1.1.score }?.0
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
        let judged = switch plan.judgedAtFullSize {
        case 0: ""
        case plan.winners.count: plan.winners.count == 1 ? ", judged at 100%" : ", each judged at 100%"
        default: " (\(plan.judgedAtFullSize) judged at 100%)"
        }
        return "Picked the sharpest frame of \(count) burst\(count == 1 ? "" : "s")\(judged).\(skipped)"
    }

    /// The focus score of the photo at a library index, and the loupe's at 100% when it took one, with
    /// its place in its burst when bursts are stacked: among the frames the loupe measured over the same
    /// part when there are two, else among the renditions' scores. Nil until one is measured.
    func facts(at index: Int, _ library: PhotoLibrary, list: PhotoList) -> FocusFacts? {
        let score = library.focusScore(at: index), full = library.fullSizeFocus(ofID: library.id(at: index))
        guard score != nil || full != nil else { return nil }
        var facts = FocusFacts(score: score, atFullSize: full?.score)
        guard list.stackGap != nil, let stack = list.stacks.stack(of: index) else { return facts }
        let frames = list.stacks.members(of: stack)
        facts.frames = frames.count
        if let full {
            let peers = frames.compactMap { library.fullSizeFocus(ofID: library.id(at: $0)) }.filter { $0.spot == full.spot }
            if peers.count > 1 {
                facts.rank = 1 + peers.filter { $0.score > full.score }.count
                facts.measured = peers.count
                facts.isRankedAtFullSize = true
                return facts
            }
        }
        guard let score else { return facts }
        let scores = frames.compactMap { library.focusScore(at: $0) }
        facts.rank = 1 + scores.filter { $0 > score }.count
        facts.measured = scores.count
        return facts
    }
}
