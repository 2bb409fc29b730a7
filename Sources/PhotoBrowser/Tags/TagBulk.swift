/// One tag put on (or taken off) many photos with one key: `a` then a tag on a million photos is one
/// outbox row holding their ids, not a million rows. Its photos are the ones the user saw selected
/// when the key was pressed (a photo that arrived later is never in it). The pump turns it into
/// ordinary deltas a chunk at a time (`expanded` of them so far), as the budget lets them go.
///
/// It takes a range of sequences, one per photo, from `sequence`: the delta made for its `i`th photo
/// has sequence `sequence + i`, so a toggle made before it is older and one made after it newer, photo
/// by photo, whenever the chunk is made.
package struct TagBulk: Sendable, Equatable {
    /// The first of its sequences.
    let sequence: Int64
    var tagID: Int
    let change: TagChange
    /// Its photos' ids, increasing.
    let photoIDs: [Int]
    /// How many of its photos (the first ones) have been made into deltas.
    var expanded = 0

    init(sequence: Int64, tagID: Int, change: TagChange, photoIDs: [Int], expanded: Int = 0) {
        self.sequence = sequence
        self.tagID = tagID
        self.change = change
        self.photoIDs = photoIDs
        self.expanded = expanded
    }

    /// How many photos wait to be made into deltas.
    var remaining: Int { photoIDs.count - expanded }

    /// Whether the photo waits in it, not yet made into a delta.
    func waits(_ photoID: Int) -> Bool {
        var low = expanded, high = photoIDs.count
        while low < high {
            let middle = (low + high) / 2
            if photoIDs[middle] < photoID { low = middle + 1 } else { high = middle }
        }
        return low < photoIDs.count && photoIDs[low] == photoID
    }

    /// The deltas of its photos from position `start` on, `count` of them at most.
    func deltas(from start: Int, count: Int) -> [TagDelta] {
        (start..<min(photoIDs.count, start + count)).map { position in
            TagDelta(sequence: sequence + Int64(position), photoID: photoIDs[position], tagID: tagID, change: change)
        }
    }

    /// The ids as stored: each the difference from the one before, seven bits a byte. A million photos
    /// listed in id order take a megabyte.
    static func encode(_ ids: [Int]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count + 8)
        var previous = 0
        for id in ids {
            var value = UInt64(id - previous)
            previous = id
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
        return bytes
    }

    /// The ids `encode` stored; nil for bytes it did not write.
    static func decode(_ bytes: [UInt8]) -> [Int]? {
        var ids: [Int] = []
        var value: UInt64 = 0, shift: UInt64 = 0, previous = 0
        for byte in bytes {
            guard shift < 63 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 != 0 {
                shift += 7
                continue
            }
            previous += Int(value)
            ids.append(previous)
            value = 0
            shift = 0
        }
        return shift == 0 ? ids : nil
    }
}
