import Foundation
import PhotoBrowser
import PhotoPickKit

/// One row of a picker, and what choosing it does.
struct PickerEntry: Sendable, Equatable {
    enum Choice: Sendable, Equatable {
        case tag(id: Int)
        case createTag(name: String)
        case untagged
        case variant(DownloadSize)
        case search(String)
        /// Text for the clipboard.
        case copy(String)
    }

    let choice: Choice
    /// `[x]`, `[-]`, `[ ]`, `(•)`: where the choice stands now.
    let mark: String
    let title: String
    let detail: String
    let color: TagColor?
}

extension UIState.Picker {
    /// The rows this picker shows for a state, best match first when there is a query.
    func entries(in state: BrowserState) -> [PickerEntry] {
        switch kind {
        case .tags: tagEntries(in: state)
        case .tagFilter: filterEntries(in: state)
        case .variant: variantEntries(in: state)
        case .manageTags:
            state.tags.tags.map { Self.entry(for: $0, mark: "", in: state) }
        case .copy: copyEntries(in: state)
        case .savedSearches:
            state.savedSearches.enumerated().map { offset, search in
                PickerEntry(
                    // The first nine answer to their number, so a saved search is two keys away: S, 1.
                    choice: .search(search.query), mark: (offset < 9 ? "\(offset + 1)" : " ") + (state.list.filter.text == search.query ? "•" : " "),
                    title: TerminalText.sanitized(search.name), detail: TerminalText.sanitized(search.query), color: nil
                )
            }
        }
    }

    private func tagEntries(in state: BrowserState) -> [PickerEntry] {
        let targets = state.tagTargets
        var holders: [Int: Int] = [:]
        for index in targets {
            for tagID in state.library.tagIDs(at: index) { holders[tagID, default: 0] += 1 }
        }
        let query = self.query.text.trimmingCharacters(in: .whitespaces)
        let scored = state.tags.tags.enumerated().compactMap { offset, tag -> (Int, Int, PhotoPickKit.Tag)? in
            FuzzyMatch.score(query, in: tag.name).map { ($0, offset, tag) }
        }
        let ordered = query.isEmpty ? scored : scored.sorted { ($0.0, -$0.1) > ($1.0, -$1.1) }
        var entries = ordered.map { _, _, tag in
            let held = holders[tag.id, default: 0]
            return Self.entry(for: tag, mark: held == 0 ? "[ ]" : held == targets.count ? "[x]" : "[-]", in: state)
        }
        let exists = state.tags.tags.first(named: query) != nil
        if !query.isEmpty && !exists {
            entries.append(PickerEntry(
                choice: .createTag(name: query), mark: " + ", title: "Create tag “\(TerminalText.sanitized(query))”",
                detail: targets.isEmpty ? "" : "and add it to \(Self.photoCount(targets.count))", color: nil
            ))
        }
        return entries
    }

    private func filterEntries(in state: BrowserState) -> [PickerEntry] {
        let filter = state.list.filter.tags
        let untagged = PickerEntry(
            choice: .untagged, mark: filter == .untagged ? "[x]" : "[ ]", title: "Untagged", detail: "photos with no tags", color: nil
        )
        return [untagged] + state.tags.tags.map { tag in
            let chosen: Bool = switch filter {
            case .any(let ids), .all(let ids): ids.contains(tag.id)
            case .none, .untagged: false
            }
            return Self.entry(for: tag, mark: chosen ? "[x]" : "[ ]", in: state)
        }
    }

    /// The id, the file name, the path of the downloaded file, the photo's API URL (never with a key).
    private func copyEntries(in state: BrowserState) -> [PickerEntry] {
        guard let photo = state.currentPhoto else { return [] }
        var entries = [
            PickerEntry(choice: .copy(String(photo.id)), mark: "", title: "id", detail: String(photo.id), color: nil),
            PickerEntry(choice: .copy(TerminalText.sanitized(photo.filename)), mark: "", title: "file name", detail: TerminalText.sanitized(photo.filename), color: nil),
        ]
        let downloaded = DownloadSize.allCases.lazy.compactMap { state.downloads.item(photoID: photo.id, variant: $0) }
            .first { $0.status.isFinished && $0.resultPath != nil }
        if let path = downloaded?.resultPath {
            entries.append(PickerEntry(choice: .copy(path), mark: "", title: "downloaded file", detail: TerminalText.sanitized(path), color: nil))
        }
        // The address alone: a user, a password or a query in api_url could hold a key, and never leaves.
        if let api = state.apiURL, var components = URLComponents(url: api.appending(path: "photos/\(photo.id)"), resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            components.query = nil
            components.fragment = nil
            if let url = components.string {
                entries.append(PickerEntry(choice: .copy(url), mark: "", title: "API URL", detail: TerminalText.sanitized(url), color: nil))
            }
        }
        return entries
    }

    private func variantEntries(in state: BrowserState) -> [PickerEntry] {
        let details: [DownloadSize: String] = [
            .original: "the file as uploaded", .jpeg: "the original's pixels as JPEG (a HEIC, RAW or PNG converted)",
            .web: "long edge 1024 px", .fhd: "long edge 1920 px", .a4: "long edge 3508 px (A4 at 300 dpi)",
        ]
        return [DownloadSize.original, .jpeg, .web, .fhd, .a4].map { size in
            PickerEntry(
                choice: .variant(size), mark: state.downloadVariant == size ? "(•)" : "( )", title: size.rawValue,
                detail: details[size, default: ""], color: nil
            )
        }
    }

    /// A tag's row: its sanitised name, how many photos have it, its colour.
    private static func entry(for tag: PhotoPickKit.Tag, mark: String, in state: BrowserState) -> PickerEntry {
        PickerEntry(
            choice: .tag(id: tag.id), mark: mark, title: TerminalText.sanitized(tag.name),
            detail: photoCount(state.library.count(ofTag: tag.id)), color: tag.color.flatMap(TagColor.init(hex:))
        )
    }

    static func photoCount(_ count: Int) -> String {
        count == 1 ? "1 photo" : "\(count.formatted()) photos"
    }
}
