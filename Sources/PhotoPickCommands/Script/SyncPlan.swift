import Foundation
import PhotoBrowser
import PhotoPickKit

/// What `sync` does to a folder, worked out once: `--dry-run` prints it, the real run carries it out,
/// so the two cannot differ. Only files photopick recorded writing, whose bytes still hash to the
/// record, are ever deleted; a file of ours changed since is the user's, kept and named.
struct SyncPlan: Sendable {
    /// A photo to fetch, and the file it will be written as.
    struct Fetch: Sendable, Equatable {
        /// The photo.
        let photoID: Int
        /// The file it is written as, unless the server's digest shows an identical one there already.
        let path: String
        /// Files already there that may be identical: the real run compares them with the server's digest.
        var unlessIdentical: [String] = []
    }

    /// Photos not in place, to fetch.
    private(set) var fetches: [Fetch] = []
    /// Photos in place (fetched before, or an identical file found there): left as they are.
    private(set) var inPlace = 0
    /// With `--delete`: files photopick wrote that no longer match, exactly as written (sidecars after their photo).
    private(set) var deletions: [WrittenFile] = []
    /// With `--delete`: files photopick wrote that no longer match but changed since; the user's now.
    private(set) var kept: [WrittenFile] = []
    /// Files of ours that changed since, whose photo the folder still wants: kept, the user's now, and the
    /// photo fetched again under the next free name.
    private(set) var keptAndFetchedAgain: [WrittenFile] = []
    /// With `--delete`: records of files that are no longer there, to forget.
    private(set) var gone: [WrittenFile] = []

    /// The plan for `wanted` in `variant` under `root`, against the queue in `state` and the records of
    /// what photopick wrote under `root`. A finished download is in place only while its file is as
    /// written (as `get` decides); one of ours changed since is kept and its photo fetched again beside it.
    init(wanted: [ScriptDownload], variant: DownloadSize, root: URL, state: BrowserState, written: [WrittenFile], deleting: Bool) {
        let records = Dictionary(written.map { ($0.path, $0) }) { first, _ in first }
        for request in wanted { plan(request, variant: variant, root: root, state: state, records: records) }
        guard deleting else { return }
        let wantedPlaces = Set(wanted.map { Place(photoID: $0.photoID, variant: variant.rawValue, folder: Self.folder($0.directory(under: root))) })
        let sidecars = Dictionary(written.filter(\.isSidecar).map { ($0.path, $0) }) { first, _ in first }
        for file in written where !file.isSidecar {
            let place = Place(photoID: file.photoID, variant: file.variant, folder: Self.folder(URL(fileURLWithPath: file.path).deletingLastPathComponent()))
            guard !wantedPlaces.contains(place) else { continue }
            let state = sort(file)
            // A sidecar goes with its photo, and only as written; one beside a kept photo stays with it.
            if state == .intact, let sidecar = sidecars[Self.sidecarURL(for: URL(fileURLWithPath: file.path)).path] {
                sort(sidecar)
            }
        }
    }

    /// One wanted photo: in place, or a fetch (beside a file of ours that changed since, kept).
    private mutating func plan(_ request: ScriptDownload, variant: DownloadSize, root: URL, state: BrowserState, records: [String: WrittenFile]) {
        let folder = request.directory(under: root)
        var changed: WrittenFile?
        if let item = state.downloads.item(photoID: request.photoID, variant: variant), item.status.isFinished, item.isIn(folder),
           let path = item.resultPath, let record = records[path], record.photoID == item.photoID, record.variant == variant.rawValue {
            switch record.currentStateTrustingStamp().state {
            case .intact:
                inPlace += 1
                return
            case .changed: changed = record
            case .gone: break
            }
        }
        if let changed { keptAndFetchedAgain.append(changed) }
        guard let index = state.library.index(ofID: request.photoID) else { return }
        switch PlannedDownload(photo: Self.photo(state, index, named: request.filename), size: variant, in: folder) {
        case .finished: inPlace += 1
        case .new(let url, let candidates):
            // A file of ours that changed holds other bytes than the photo's: the digest cannot find it identical.
            let unless = candidates.map { $0.path(percentEncoded: false) }.filter { $0 != changed?.path }
            fetches.append(Fetch(photoID: request.photoID, path: url.path(percentEncoded: false), unlessIdentical: unless))
        }
    }

    /// One line per action: `get PATH`, `delete PATH`, `keep PATH` (ours, but changed since: the user's now). A fetch
    /// that the server's digest may still turn into "already there" says so: the dry run makes no request.
    var lines: [String] {
        fetches.map { fetch in
            let unless = fetch.unlessIdentical.isEmpty ? "" : " (unless the server's digest shows \(fetch.unlessIdentical.joined(separator: ", ")) holds it already)"
            return "get " + fetch.path + unless
        } + deletions.map { "delete " + $0.path } + (keptAndFetchedAgain + kept).map { "keep " + $0.path }
    }

    /// Files the plan touches or forgets, by their state now. A stamp still as recorded vouches for the
    /// plan, so a dry run over a thousand files reads none; the real run hashes each again before it
    /// unlinks it (`SyncCommand`).
    @discardableResult
    private mutating func sort(_ file: WrittenFile) -> WrittenFile.State {
        let state = file.currentStateTrustingStamp().state
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
        var photo = state.library.photo(at: index)
        if let filename { photo.filename = filename }
        return photo
    }

    /// The XMP sidecar photopick writes beside a downloaded file: `<file name>.xmp`, the name darktable
    /// looks for. A plan deletes a sidecar only together with its photo.
    static func sidecarURL(for file: URL) -> URL {
        file.deletingLastPathComponent().appending(path: file.lastPathComponent + ".xmp", directoryHint: .notDirectory)
    }
}

extension WrittenFile {
    /// The variant a sidecar's record names.
    static let sidecarVariant = "xmp"

    /// Whether this is a sidecar photopick wrote beside a photo.
    var isSidecar: Bool { variant == Self.sidecarVariant }
}
