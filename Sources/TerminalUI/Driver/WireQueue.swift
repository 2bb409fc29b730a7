import PhotoPickSettings

/// The image jobs waiting for the terminal, in order. Pure: the writer takes units from it, and each
/// frame takes back what it no longer wants.
struct WireQueue: Equatable, Sendable {
    private(set) var jobs: [WireJob] = []
    /// When each job may begin, by position in `jobs`, on the writer's clock (`Timekeeper.elapsed`).
    private var readyAt: [Duration] = []
    /// Whether the first job has had a unit written: it must then finish its transmission.
    private(set) var begun = false

    var isEmpty: Bool { jobs.isEmpty }

    /// Queues jobs given at `now`, each to begin after its rest.
    mutating func append(_ newJobs: [WireJob], at now: Duration) {
        for job in newJobs where !job.units.isEmpty {
            jobs.append(job)
            readyAt.append(now + job.rest)
        }
    }

    /// The next unit to write, without taking it.
    var next: WireUnit? { jobs.first?.units.first }

    /// When the next unit may go, if the first job is still resting at `now`.
    func restsUntil(now: Duration) -> Duration? {
        guard !begun, let first = readyAt.first, first > now else { return nil }
        return first
    }

    /// Takes the next unit; with it, the job it ends (for the log), if it ends one.
    mutating func take() -> (unit: WireUnit, ended: WireJob?)? {
        guard var job = jobs.first, !job.units.isEmpty else { return nil }
        let unit = job.units.removeFirst()
        if job.units.isEmpty {
            jobs.removeFirst()
            readyAt.removeFirst()
            begun = false
            return (unit, job)
        }
        jobs[0] = job
        begun = true
        return (unit, nil)
    }

    /// Takes back every job for an image not in `keeping` (all of them when nil): a job not begun
    /// goes whole; the one begun keeps only what completes its transmission.
    mutating func supersede(keeping: Set<ImageLayer.Key>?) -> Superseded {
        var result = Superseded()
        var kept: [WireJob] = [], keptReady: [Duration] = []
        // Images whose reduced version goes too: then nothing of them reaches the screen.
        var reducedGone: Set<ImageLayer.Key> = []
        for (index, job) in jobs.enumerated() {
            guard let image = job.image, !(keeping?.contains(image) ?? false) else {
                kept.append(job)
                keptReady.append(readyAt[index])
                continue
            }
            if index == 0, begun {
                // A kitty transmission under way finishes, unplaced; strips of pixels already drawn stay
                // shown, for the frame to paint over.
                var rest = job
                rest.units.removeAll { $0.kind == .place }
                if job.transmits { result.notShown.append(image) }
                if job.stage == .reduced { reducedGone.insert(image) }
                if rest.units.isEmpty {
                    begun = false
                } else {
                    kept.append(rest)
                    keptReady.append(readyAt[index])
                }
            } else {
                if job.transmits { result.notSent.append(image) }
                switch job.stage {
                case .whole:
                    result.notShown.append(image)
                case .reduced:
                    result.notShown.append(image)
                    reducedGone.insert(image)
                case .wholeAfterReduced:
                    // Its reduced version is on screen unless it went too.
                    if reducedGone.contains(image) { result.notShown.append(image) }
                }
            }
        }
        jobs = kept
        readyAt = keptReady
        result.notShown = result.notShown.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        return result
    }
}
