/// RAW+JPEG pairs in the list: a closed pair is its RAW's row, an open one both files' rows.
extension PhotoList {
    /// Opens the RAW+JPEG pair at `position`, listing both files, or closes the open pair it is in; the
    /// cursor stays on the file it was on, or goes to the RAW. False when the photo is in no pair.
    mutating func togglePair(at position: Int, library: PhotoLibrary, selection: Selection) -> Bool {
        let index = libraryIndex(at: position)
        guard library.pairs.partner(of: index) != nil else { return false }
        let head = Int32(library.pairs.head(of: index))
        if openPairs.remove(head) == nil { openPairs.insert(head) }
        refilter(library: library, selection: selection, anchor: index)
        return true
    }

    /// What the row at `position` shows of a pair: `RAW+JPG` (or `RAW+HEIC`) for a closed pair, `RAW` or
    /// `JPG` for a file of an open one; nil for a photo in no pair.
    package func pairBadge(at position: Int, library: PhotoLibrary) -> String? {
        let index = libraryIndex(at: position), pairs = library.pairs
        guard let partner = pairs.partner(of: index) else { return nil }
        let other = pairs.isCompanion(index) ? index : partner
        let rendered = Self.renderedLabel(library.filename(at: other))
        if openPairs.contains(Int32(pairs.head(of: index))) { return pairs.isCompanion(index) ? rendered : "RAW" }
        return pairs.isCompanion(index) ? nil : "RAW+" + rendered
    }

    /// `JPG` or `HEIC`, by a name's extension.
    private static func renderedLabel(_ filename: String) -> String {
        let ext = filename.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return ["heic", "heif", "hif"].contains(ext) ? "HEIC" : "JPG"
    }

    /// The photos a key acts on for the photo at library index `index`: it and, when its row stands for a
    /// closed pair, the pair's other file.
    package func files(of index: Int, in library: PhotoLibrary) -> [Int] {
        closedPartner(of: index, in: library).map { [index, $0] } ?? [index]
    }

    /// The other file of the closed pair whose row the photo at `index` is, if any.
    func closedPartner(of index: Int, in library: PhotoLibrary) -> Int? {
        let pairs = library.pairs
        guard let partner = pairs.partner(of: index), !openPairs.contains(Int32(pairs.head(of: index))) else { return nil }
        return partner
    }

    /// Takes the companions of closed pairs out of `visible`: their RAW's row stands for them. In one
    /// pass over the buffer, with no closure per photo (a million calls were a tenth of a filter's time),
    /// and no copy of a list that holds nothing to fold (a filter's comes folded).
    mutating func foldPairs(_ pairs: PhotoPairs) {
        guard pairs.count > 0 else { return }
        let open = openPairs
        func folds(_ index: Int32) -> Bool { pairs.isFolded(Int(index), open: open) }
        guard let first = visible.withUnsafeBufferPointer({ $0.firstIndex(where: folds) }) else { return }
        let kept = visible.withUnsafeMutableBufferPointer { buffer in
            var kept = first
            for index in (first + 1)..<buffer.count where !folds(buffer[index]) {
                buffer[kept] = buffer[index]
                kept += 1
            }
            return kept
        }
        visible.removeSubrange(kept...)
    }

    /// The index whose row shows the photo at `index`: its pair's RAW when the pair is closed.
    func shownIndex(_ index: Int, _ pairs: PhotoPairs) -> Int {
        pairs.isFolded(index, open: openPairs) ? pairs.head(of: index) : index
    }
}
