/// Bursts: photos from one camera each taken within `gap` seconds of the one before form a stack.
/// Photos without a capture time or a camera are never stacked; two bodies shooting at once make two
/// stacks, not one broken into pieces.
struct BurstStacks: Sendable {
    /// The stack of each library index, as a number into `members`; -1 for none.
    private var stackOf: [Int32] = []
    /// Each stack's library indices, in capture order.
    private var members: [[Int32]] = []

    /// No stacks.
    init() {}

    /// The stacks of every photo in `library`.
    init(_ library: PhotoLibrary, gap: Double, count: Int) {
        stackOf = Array(repeating: -1, count: count)
        var keyed: [(make: Int32, model: Int32, time: Double, id: Int, index: Int32)] = []
        keyed.reserveCapacity(count)
        for index in 0..<count where !library.isRemoved(index) {
            let photo = library[index]
            guard !photo.takenAtSeconds.isNaN, photo.cameraMake != 0 || photo.cameraModel != 0 else { continue }
            keyed.append((photo.cameraMake, photo.cameraModel, photo.takenAtSeconds, photo.id, Int32(index)))
        }
        keyed.sort { ($0.make, $0.model, $0.time, $0.id) < ($1.make, $1.model, $1.time, $1.id) }
        var run: [Int32] = []
        func close() {
            if run.count > 1 {
                for index in run { stackOf[Int(index)] = Int32(members.count) }
                members.append(run)
            }
            run.removeAll(keepingCapacity: true)
        }
        for (position, photo) in keyed.enumerated() {
            if position > 0 {
                let before = keyed[position - 1]
                if before.make != photo.make || before.model != photo.model || photo.time - before.time > gap { close() }
            }
            run.append(photo.index)
        }
        close()
    }

    /// How many stacks there are.
    var count: Int { members.count }

    /// The stack a library index belongs to, if any.
    func stack(of index: Int) -> Int? {
        guard index < stackOf.count else { return nil }
        let stack = stackOf[index]
        return stack < 0 ? nil : Int(stack)
    }

    /// What names a stack while photos arrive and stack numbers change: its first photo's index.
    func key(of stack: Int) -> Int32 {
        members[stack][0]
    }

    /// A stack's photos as library indices, in capture order.
    func members(of stack: Int) -> [Int] {
        members[stack].map(Int.init)
    }
}
