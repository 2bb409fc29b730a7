/// Which files of a RAW+JPEG pair a download takes (`pairs` in the config, `--pairs` on `get` and
/// `sync`): both, as Photo Mechanic's ingest does by default, or only one of them.
package enum PairDownloads: String, Sendable, CaseIterable {
    case both, raw, jpeg

    /// The files to fetch of a row's `files` (one, or a closed pair's RAW then its JPEG or HEIC).
    func choose(_ files: [Int], pairs: PhotoPairs) -> [Int] {
        guard files.count == 2, self != .both else { return files }
        return files.filter { pairs.isCompanion($0) == (self == .jpeg) }
    }

    /// For a script's photos, each named by id or found by a query: `both` takes them as named (a
    /// query holds both files of a pair already; `--ids` names files exactly, as every verb takes
    /// them), `raw` or `jpeg` that file of each pair whichever of its files was named.
    package func choose(photoIDs: [Int], in library: PhotoLibrary) -> [Int] {
        var seen = Set<Int>()
        var chosen: [Int] = []
        for id in photoIDs {
            guard let index = library.index(ofID: id), let partner = library.pairs.partner(of: index) else {
                if seen.insert(id).inserted { chosen.append(id) }
                continue
            }
            let raw = library.pairs.head(of: index), other = raw == index ? partner : index
            let files = switch self {
            case .both: [index]
            case .raw: [raw]
            case .jpeg: [other]
            }
            for file in files where seen.insert(library.id(at: file)).inserted { chosen.append(library.id(at: file)) }
        }
        return chosen
    }
}
