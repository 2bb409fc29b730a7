/// What a `Range` header asks of a representation `length` bytes long (RFC 9110 §14).
enum ByteRange: Equatable {
    /// No usable range: send everything with 200.
    case whole
    case partial(ClosedRange<Int64>)
    case unsatisfiable

    /// Multiple ranges and syntax errors fall back to `.whole`, as RFC 9110 allows.
    init(header: String?, length: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).filter { $0 != " " }
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        let first = Int64(bounds[0])
        let last = Int64(bounds[1])
        switch (bounds[0].isEmpty, bounds[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix >= 0 else { self = .whole; return }
            self = suffix == 0 || length == 0 ? .unsatisfiable : .partial(max(0, length - suffix)...(length - 1))
        case (false, true):
            guard let start = first, start >= 0 else { self = .whole; return }
            self = start >= length ? .unsatisfiable : .partial(start...(length - 1))
        case (false, false):
            guard let start = first, let end = last, start >= 0, start <= end else { self = .whole; return }
            self = start >= length ? .unsatisfiable : .partial(start...min(end, length - 1))
        case (true, true):
            self = .whole
        }
    }
}
