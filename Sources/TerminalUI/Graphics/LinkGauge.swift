import Synchronization

/// Whether the link to the terminal was last measured slow: the writer sets it from the terminal's
/// answers, and the preview renderer, on the loader's tasks, then makes each image's quick first
/// version as well. One per process, as there is one terminal.
enum LinkGauge {
    private static let slow = Atomic<Bool>(false)

    static var isSlow: Bool { slow.load(ordering: .relaxed) }

    static func set(slow value: Bool) { slow.store(value, ordering: .relaxed) }
}
