/// One copy of each repeated string (camera bodies, lenses, MIME types), so 100,000 photos share a few dozen.
struct StringPool: Sendable {
    /// Every string by number; number 0 is none.
    private(set) var strings: [String] = [""]
    private var ids: [String: Int32] = [:]

    init() {}

    /// A pool of `strings` as numbered in another (a library file), the first standing for none.
    init(strings: [String]) {
        self.strings = strings.isEmpty ? [""] : strings
        for (id, string) in self.strings.enumerated().dropFirst() { ids[string] = Int32(id) }
    }

    /// The string's number; 0 stands for none.
    mutating func intern(_ string: String?) -> Int32 {
        guard let string else { return 0 }
        if let id = ids[string] { return id }
        let id = Int32(strings.count)
        strings.append(string)
        ids[string] = id
        return id
    }

    /// The numbers of the strings that pass `test`.
    func ids(where test: (String) -> Bool) -> Set<Int32> {
        var ids: Set<Int32> = []
        for (id, string) in strings.enumerated().dropFirst() where test(string) { ids.insert(Int32(id)) }
        return ids
    }

    subscript(id: Int32) -> String? {
        id == 0 ? nil : strings[Int(id)]
    }
}
