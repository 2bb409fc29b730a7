import Testing
@testable import PhotoBrowser

@Suite struct BitsetTests {
    /// `keep(where:)` asks only about the indices in the set, across word boundaries, and keeps those that pass.
    @Test func keepAsksOnlyAboutMembersAndKeepsThoseThatPass() {
        let members = Array(stride(from: 0, to: 300, by: 3))
        var set = Bitset(members)
        var asked: [Int] = []
        set.keep { asked.append($0); return $0 % 2 == 0 }
        #expect(asked == members)
        #expect(set.indices == members.filter { $0 % 2 == 0 })
        #expect(set.count == 50)
    }
}
