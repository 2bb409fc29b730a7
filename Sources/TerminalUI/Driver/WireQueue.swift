/// The image jobs waiting for the terminal, in order. Pure: the writer takes units from it, and each
/// frame takes back what it no longer wants.
struct WireQueue: Equatable, Sendable {
    private(set) var jobs: [WireJob] = []
    /// Whether the first job has had a unit written: it must then finish its transmission.
    private(set) var begun = false

    var isEmpty: Bool { jobs.isEmpty }

    mutating func append(_ newJobs: [WireJob]) {
        jobs += newJobs.filter { !$0.units.isEmpty }
    }

    /// The next unit to write, without taking it.
    var next: WireUnit? { jobs.first?.units.first }

    /// Takes the next unit; with it, the job it ends (for the log), if it ends one.
    mutating func take() -> (unit: WireUnit, ended: WireJob?)? {
        guard var job = jobs.first, !job.units.isEmpty else { return nil }
        let unit = job.units.removeFirst()
        if job.units.isEmpty {
            jobs.removeFirst()
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
        var kept: [WireJob] = []
        for (index, job) in jobs.enumerated() {
            guard let image = job.image, !(keeping?.contains(image) ?? false) else {
                kept.append(job)
                continue
            }
            if index == 0, begun {
                // A kitty transmission under way finishes, unplaced; strips of pixels already drawn stay
                // shown, for the frame to paint over.
                var rest = job
                rest.units.removeAll { $0.kind == .place }
                if job.transmits { result.notShown.append(image) }
                if rest.units.isEmpty {
                    begun = false
                } else {
                    kept.append(rest)
                }
            } else {
                result.notShown.append(image)
                if job.transmits { result.notSent.append(image) }
            }
        }
        jobs = kept
        return result
    }
}
