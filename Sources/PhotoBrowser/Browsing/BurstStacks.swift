/// Bursts: photos from one camera each taken within `gap` seconds of the one before form a stack.
/// Photos without a capture time or a camera are never stacked; two bodies shooting at once make two
/// stacks, not one broken into pieces; a RAW+JPEG pair is one frame.
struct BurstStacks: Sendable {
    /// The stack of each library index, as a number into `bounds`; -1 for none.
    private var stackOf: [Int32] = []
    /// Every stack's library indices, stack after stack, each in capture order: one array, not an
    /// array per stack (a hundred thousand small allocations at a million photos).
    private var members: [Int32] = []
    /// Where each stack's indices begin in `members`, and after the last, where they end.
    private var bounds: [Int32] = [0]

    /// No stacks.
    init() {}

    /// The stacks of every photo in `library`. The capture-time order is kept already, so each camera's
    /// photos come out of it in time order by a counting pass: a million photos take a few milliseconds,
    /// where sorting them by camera and time took 145.
    init(_ library: PhotoLibrary, gap: Double) {
        let columns = library.columns
        stackOf = Array(repeating: -1, count: columns.count)
        let make = columns.cameraMake, model = columns.cameraModel, takenAt = columns.takenAt, pairs = library.pairs
        // Photos with a time and a camera, by camera (make, model), each camera's in time order.
        var cameras: [Int64: Int] = [:]
        var counts: [Int] = []
        var camera = [Int32](repeating: -1, count: columns.count)
        // Photos of one session share a camera: the last one's number saves most lookups.
        var lastKey: Int64 = -1, lastNumber = 0
        for index in library.orders[.captureTime] {
            let row = Int(index)
            // A RAW+JPEG pair's JPEG is the same frame as its RAW, which stands for both.
            guard !takenAt[row].isNaN, make[row] != 0 || model[row] != 0, !pairs.isCompanion(row) else { continue }
            let key = Int64(make[row]) << 32 | Int64(UInt32(bitPattern: model[row]))
            let number: Int
            if key == lastKey {
                number = lastNumber
            } else {
                number = cameras[key] ?? {
                    cameras[key] = counts.count
                    counts.append(0)
                    return counts.count - 1
                }()
                (lastKey, lastNumber) = (key, number)
            }
            camera[row] = Int32(number)
            counts[number] += 1
        }
        var starts = [Int](repeating: 0, count: counts.count + 1)
        for number in counts.indices { starts[number + 1] = starts[number] + counts[number] }
        var next = starts
        var byCamera = [Int32](repeating: 0, count: starts.last ?? 0)
        for index in library.orders[.captureTime] where camera[Int(index)] >= 0 {
            let number = Int(camera[Int(index)])
            byCamera[next[number]] = index
            next[number] += 1
        }
        var run: [Int32] = []
        func close() {
            if run.count > 1 {
                let stack = Int32(bounds.count - 1)
                for index in run { stackOf[Int(index)] = stack }
                members.append(contentsOf: run)
                bounds.append(Int32(members.count))
            }
            run.removeAll(keepingCapacity: true)
        }
        for number in counts.indices {
            for position in starts[number]..<starts[number + 1] {
                let index = byCamera[position]
                if let last = run.last, takenAt[Int(index)] - takenAt[Int(last)] > gap { close() }
                run.append(index)
            }
            close()
        }
    }

    /// How many stacks there are.
    var count: Int { bounds.count - 1 }

    /// The stack a library index belongs to, if any.
    func stack(of index: Int) -> Int? {
        guard index < stackOf.count else { return nil }
        let stack = stackOf[index]
        return stack < 0 ? nil : Int(stack)
    }

    /// What names a stack while photos arrive and stack numbers change: its first photo's index.
    func key(of stack: Int) -> Int32 {
        members[Int(bounds[stack])]
    }

    /// A stack's photos as library indices, in capture order.
    func members(of stack: Int) -> [Int] {
        members[Int(bounds[stack])..<Int(bounds[stack + 1])].map(Int.init)
    }
}
