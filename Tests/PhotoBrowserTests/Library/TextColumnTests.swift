@testable import PhotoPickServer
import Testing
@testable import PhotoBrowser

@Suite struct TextColumnTests {
    /// A search through the buffer finds exactly the rows a row-by-row search finds: texts from a small
    /// alphabet so hits are dense, a few rows apart and far apart, straddle the end of one row and the
    /// start of the next, sit at the buffer's last byte, and some rows moved out of their slot.
    @Test(arguments: [1, 2, 3, 5])
    func aSearchOfTheBufferFindsWhatEachRowHolds(seed: UInt64) {
        var random = SeededRandom(seed: seed)  // the same texts on every run
        let alphabet = Array("abc1".utf8)
        var column = TextColumn(filler: 0x1F)
        var texts: [[UInt8]] = []
        for row in 0..<4_000 {
            // Long runs with no "a" at all now and then, so the search also jumps far.
            let length = row % 500 < 40 ? 60 + Int(random.next() % 80) : Int(random.next() % 9)
            let letters = row % 500 < 40 ? Array("bc1".utf8) : alphabet
            let text = (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }
            column.append(text)
            texts.append(text)
        }
        for _ in 0..<200 {
            let row = Int(random.next() % UInt64(texts.count))
            let text = (0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % 4)] }
            column.replace(row, with: text)
            texts[row] = text
        }
        for needle in ["a", "ab", "ca", "abc", "1a", "cab1", "aaaa", "b1c", "zz"] {
            let bytes = Array(needle.utf8)
            let expected = texts.indices.filter { texts[$0].contains(bytes) }
            #expect(column.rows(containing: bytes).indices == expected, "\(needle)")
        }
    }
}
