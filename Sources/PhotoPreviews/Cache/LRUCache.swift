/// A least-recently-used cache bounded by the total cost of its values (bytes, usually). Lookups,
/// inserts and evictions are O(1): entries sit in a doubly linked list threaded through an array.
public struct LRUCache<Key: Hashable, Value> {
    fileprivate struct Entry {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    /// The most the costs may add up to; inserting past it evicts the least recently used entries.
    public let costLimit: Int
    /// What the stored values cost together; never more than `costLimit`.
    public private(set) var totalCost = 0
    private var entries: [Entry?] = []
    private var freeSlots: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// An empty cache whose values may cost `costLimit` in all.
    public init(costLimit: Int) {
        precondition(costLimit >= 0)
        self.costLimit = costLimit
    }

    /// How many entries it holds.
    public var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return entries[slot]!.value
    }

    /// The value for `key`, leaving the order as it is.
    public func peek(_ key: Key) -> Value? {
        slots[key].map { entries[$0]!.value }
    }

    /// Stores `value` as the most recently used and returns what had to go to stay within the limit,
    /// oldest first. A value costing more than the whole limit is not kept (and is returned).
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        var evicted: [(key: Key, value: Value)] = []
        if let old = removeValue(for: key), cost > costLimit { evicted.append((key, old)) }
        guard cost <= costLimit else {
            evicted.append((key, value))
            return evicted
        }
        while totalCost + cost > costLimit, let slot = oldest {
            let entry = entries[slot]!
            unlink(slot)
            evicted.append((entry.key, entry.value))
        }
        let entry = Entry(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = entry
        } else {
            slot = entries.count
            entries.append(entry)
        }
        if let newest { entries[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
        return evicted
    }

    /// Removes the entry for `key` and returns its value, or nil when there was none.
    @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        let value = entries[slot]!.value
        unlink(slot)
        return value
    }

    /// Keys from the least to the most recently used.
    public var keysByAge: [Key] {
        var keys: [Key] = []
        var slot = oldest
        while let current = slot {
            keys.append(entries[current]!.key)
            slot = entries[current]!.newer
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard newest != slot else { return }
        let entry = entries[slot]!
        detach(slot, entry)
        entries[slot]!.older = newest
        entries[slot]!.newer = nil
        if let newest { entries[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func detach(_ slot: Int, _ entry: Entry) {
        if let newer = entry.newer { entries[newer]!.older = entry.older } else { newest = entry.older }
        if let older = entry.older { entries[older]!.newer = entry.newer } else { oldest = entry.newer }
    }

    private mutating func unlink(_ slot: Int) {
        let entry = entries[slot]!
        detach(slot, entry)
        slots[entry.key] = nil
        totalCost -= entry.cost
        entries[slot] = nil
        freeSlots.append(slot)
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Entry: Sendable where Key: Sendable, Value: Sendable {}
