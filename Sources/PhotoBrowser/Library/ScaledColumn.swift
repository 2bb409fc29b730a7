/// A column of numbers kept as 32-bit counts of a fixed unit (millionths of a degree, thousandths of a
/// millimetre, seconds from 2000), half the memory of `Double`s. A value the unit does not hold exactly
/// (more decimals, out of range) is kept aside whole, so every value reads back exactly as it was given;
/// an absent one reads as NaN.
struct ScaledColumn: Sendable, Equatable {
    /// Units in one: 1,000,000 for millionths.
    let scale: Double
    /// What a stored 0 stands for: an epoch for times; 0 for the rest, as an offset would round.
    let offset: Double
    private(set) var raw: [Int32] = []
    /// The values kept aside, by row.
    private(set) var aside: [Int32: Double] = [:]

    private static let missing = Int32.min
    private static let keptAside = Int32.min + 1

    init(scale: Double, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    /// Reassembles a column written from `raw` and `aside`.
    init(scale: Double, offset: Double = 0, raw: [Int32], aside: [Int32: Double]) {
        self.init(scale: scale, offset: offset)
        self.raw = raw
        self.aside = aside
    }

    /// Photos' capture and upload times, in whole seconds from 2000 (1932 to 2068).
    static func seconds() -> ScaledColumn { ScaledColumn(scale: 1, offset: 946_684_800) }

    var count: Int { raw.count }

    subscript(index: Int) -> Double {
        get {
            let stored = raw[index]
            if stored > Self.keptAside { return value(stored) }
            return stored == Self.missing ? .nan : aside[Int32(index)] ?? .nan
        }
        set {
            let stored = encode(newValue)
            raw[index] = stored
            aside[Int32(index)] = stored == Self.keptAside ? newValue : nil
        }
    }

    mutating func append(_ value: Double) {
        let stored = encode(value)
        raw.append(stored)
        if stored == Self.keptAside { aside[Int32(raw.count - 1)] = value }
    }

    /// A copy with no room to grow.
    func compacted() -> ScaledColumn {
        ScaledColumn(scale: scale, offset: offset, raw: raw.compacted(), aside: aside)
    }

    private func value(_ stored: Int32) -> Double {
        scale == 1 ? Double(stored) + offset : Double(stored) / scale
    }

    private func encode(_ value: Double) -> Int32 {
        guard value.isFinite else { return Self.missing }
        let scaled = ((value - offset) * scale).rounded()
        guard scaled > Double(Self.keptAside), scaled <= Double(Int32.max) else { return Self.keptAside }
        let stored = Int32(scaled)
        return self.value(stored) == value ? stored : Self.keptAside
    }
}
