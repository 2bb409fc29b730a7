import Foundation
import PhotoPickKit

/// What `sync` does to a folder, worked out once: `--dry-run` prints it, the real run carries it out,
/// so the two cannot differ. Only files photopick recorded writing, whose bytes still hash to the
/// record, are ever deleted; a file of ours changed since is the user's, kept and named.
public struct SyncPlan: Sendable {
    /// A photo to fetch, and the file it will be written as.
    public struct Fetch: Sendable, Equatable {
        /// The photo.
        public let photoID: Int
        /// The file it is written as, unless the server's digest shows an identical one there already.
        public let path: String
        /// Files already there that may be identical: the real run compares them with the server's digest.
        public var unlessIdentical: [String] = []
    }

    /// Photos not in place, to fetch.
    public private(set) var fetches: [Fetch] = []
    /// Photos in place (fetched before, or an identical file found there): left as they are.
    public private(set) var inPlace = 0
    /// With `--delete`: files photopick wrote that no longer match, exactly as written (sidecars after their photo).
    public private(set) var deletions: [WrittenFile] = []
    /// With `--delete`: files photopick wrote that no longer match but changed since; the user's now.
    public private(set) var kept: [WrittenFile] = []
    /// With `--delete`: records of files that are no longer there, to forget.
    public private(set) var gone: [WrittenFile] = []

    /// The plan for `wanted` in `variant` under `root`, against the queue in `state` and the records of
    /// what photopick wrote under `root`.
    public init(wanted: [ScriptDownload], variant: DownloadSize, root: URL, state: BrowserState, written: [WrittenFile], deleting: Bool) {
        for request in wanted {
            let folder = request.directory(under: root)
            if let item = state.downloads.item(photoID: request.photoID, variant: variant), item.status.isFinished,
               item.isIn(folder), item.resultExists {
                inPlace += 1
                continue
            }
            guard let index = state.library.index(ofID: request.photoID) else { continue }
            switch PlannedDownload(photo: Self.photo(state, index, named: request.filename), size: variant, in: folder) {
            case .finished: inPlace += 1
            case .new(let url, let candidates):
                fetches.append(Fetch(photoID: request.photoID, path: url.path(percentEncoded: false),
                                     unlessIdentical: candidates.map { $0.path(percentEncoded: false) }))
            }
        }
        guard deleting else { return }
        let wantedPlaces = Set(wanted.map { Place(photoID: $0.photoID, variant: variant.rawValue, folder: Self.folder($0.directory(under: root))) })
        let sidecars = Dictionary(written.filter(\.isSidecar).map { ($0.path, $0) }) { first, _ in first }
        for file in written where !file.isSidecar {
            let place = Place(photoID: file.photoID, variant: file.variant, folder: Self.folder(URL(fileURLWithPath: file.path).deletingLastPathComponent()))
            guard !wantedPlaces.contains(place) else { continue }
            let state = sort(file)
            // A sidecar goes with its photo, and only as written; one beside a kept photo stays with it.
            if state == .intact, let sidecar = sidecars[XMPSidecar.url(for: URL(fileURLWithPath: file.path)).path] {
                sort(sidecar)
            }
        }
    }

    /// One line per action: `get PATH`, `delete PATH`, `keep PATH` (ours, but changed since). A fetch
    /// that the server's digest may still turn into "already there" says so: the dry run makes no request.
    public var lines: [String] {
        fetches.map { fetch in
            let unless = fetch.unlessIdentical.isEmpty ? "" : " (unless the server's digest shows \(fetch.unlessIdentical.joined(separator: ", ")) holds it already)"
            return "get " + fetch.path + unless
        } + deletions.map { "delete " + $0.path } + kept.map { "keep " + $0.path }
    }

    /// Files the plan touches or forgets, by their state now.
    @discardableResult
    private mutating func sort(_ file: WrittenFile) -> WrittenFile.State {
        let state = file.currentState()
        switch state {
        case .intact: deletions.append(file)
        case .changed: kept.append(file)
        case .gone: gone.append(file)
        }
        return state
    }

    /// A photo in a variant in a folder: what a sync wants, and what a written file is.
    private struct Place: Hashable {
        let photoID: Int
        let variant: String
        let folder: String
    }

    private static func folder(_ url: URL) -> String {
        var path = url.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func photo(_ state: BrowserState, _ index: Int, named filename: String?) -> Photo {
        let listed = state.library[index]
        var photo = Photo(id: listed.id, filename: filename ?? listed.filename, bytes: listed.bytes, takenAt: listed.takenAt, tagIDs: [])
        photo.mimeType = state.library.string(listed.mimeType)
        return photo
    }
}

extension WrittenFile {
    /// The variant a sidecar's record names.
    public static let sidecarVariant = "xmp"

    /// Whether this is a sidecar photopick wrote beside a photo.
    public var isSidecar: Bool { variant == Self.sidecarVariant }
}
