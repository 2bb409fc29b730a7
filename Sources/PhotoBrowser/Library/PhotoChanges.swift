/// What one event did to the photos: the parent brings the list and the selection along with it.
struct PhotoChanges: Sendable, Equatable {
    /// The first index appended, if any: every index from it on is new.
    var addedFrom: Int?
    /// Indices replaced by a newer copy, in the order replaced, each once.
    private(set) var replaced: [Int] = []
    private var replacedSet: Set<Int> = []
    /// Indices of photos taken out.
    var removed: Set<Int32> = []
    /// Whether a focus score changed.
    var isFocusChanged = false
    /// Whether the library gave back its spare room: a list sharing an order takes the new one.
    var isCompacted = false
    /// How many indices the library had when the changes were taken.
    var count = 0

    /// The indices appended.
    var added: Range<Int> { (addedFrom ?? count)..<count }

    /// Indices to put back in their places: replaced, not added or removed meanwhile.
    var repositioned: [Int] {
        replaced.filter { index in !added.contains(index) && !removed.contains(Int32(index)) }
    }

    /// Whether any photo came, went or moved.
    var movesPhotos: Bool { !replaced.isEmpty || !removed.isEmpty || !added.isEmpty }

    mutating func replace(_ index: Int) {
        if replacedSet.insert(index).inserted { replaced.append(index) }
    }
}
