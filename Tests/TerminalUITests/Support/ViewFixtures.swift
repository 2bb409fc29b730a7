import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPreviews
@testable import TerminalUI

/// Photos, tags and states the view and controller tests draw.
enum Fixture {
    static let tags = [
        PhotoPickKit.Tag(id: 1, name: "Favourite", color: "#e94b60"),
        PhotoPickKit.Tag(id: 2, name: "Portfolio", color: "#3b82f6"),
        PhotoPickKit.Tag(id: 3, name: "Print", color: nil),
    ]

    /// Names with wide characters, emoji and escape sequences, as the demo library has.
    static let names = [
        "R0001.JPG", "東京タワー夜景.jpg", "🌅 západ slunce.jpg", "\u{1B}[31mRED\u{1B}[0m alert.jpg", "Praha – Karlův most.jpg",
        "IMG_0005.jpg", "👨‍👩‍👧 rodina na chalupě.jpg", "서울 야경.jpg", String(repeating: "a", count: 120) + ".jpg", "IMG_0009.jpg",
    ]

    static func photo(_ id: Int, _ name: String, tags: [Int] = []) -> Photo {
        var photo = Photo(
            id: id, filename: name, bytes: Int64(1_000_000 + id * 250_000),
            takenAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(id) * 86_400), tagIDs: tags
        )
        photo.width = 4000
        photo.height = 3000
        photo.camera = Photo.Camera(make: "FUJIFILM", model: "X-T4")
        photo.lens = "XF23mmF1.4 R"
        return photo
    }

    /// Photos 1–`count`; the first ten carry the names above, and some have tags.
    static func photos(_ count: Int = 40) -> [Photo] {
        (1...count).map { id in
            let name = id <= names.count ? names[id - 1] : "IMG_\(String(format: "%04d", id)).jpg"
            let tags: [Int] = switch id % 5 {
            case 1: [1]
            case 2: [1, 2]
            case 3: [3]
            default: []
            }
            return photo(id, name, tags: tags)
        }
    }

    /// A loaded state, sorted by name so rows have a known order.
    static func state(_ photos: [Photo] = photos(), apiURL: URL? = nil) -> BrowserState {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/home/user/Downloads/photopick"), apiURL: apiURL)
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        _ = state.apply(.tags(.tagsLoaded(tags)))
        _ = state.apply(.catalogue(.photosArrived(photos, nextCursor: nil)))
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: Timekeeper.testEpoch)))
        _ = state.apply(.browsing(.sortChosen(.captureTime)))
        return state
    }

    static func context(_ depth: Theme.Depth, demo: Bool = true) -> ViewContext {
        var context = ViewContext(theme: Theme(depth: depth), demo: demo, now: Timekeeper.testEpoch, homeDirectory: "/home/user")
        context.presenter = MetadataPresenter(timeZone: TimeZone(identifier: "UTC")!)
        return context
    }

    /// Renders like the app does: the list is told its height first.
    static func render(
        _ state: BrowserState, ui: UIState = UIState(), width: Int, height: Int, depth: Theme.Depth = .colors256, demo: Bool = true,
        previews: PreviewStore? = nil
    ) -> (Canvas, ScreenLayout) {
        let (canvas, layout, _) = renderWanting(state, ui: ui, width: width, height: height, depth: depth, demo: demo, previews: previews)
        return (canvas, layout)
    }

    /// Renders like `render`, and returns the previews the frame wanted too.
    static func renderWanting(
        _ state: BrowserState, ui: UIState = UIState(), width: Int, height: Int, depth: Theme.Depth = .colors256, demo: Bool = true,
        previews: PreviewStore? = nil
    ) -> (Canvas, ScreenLayout, [PreviewRequest]) {
        var state = state
        var context = context(depth, demo: demo)
        context.previews = previews
        let screen = Screen(context: context)
        _ = state.apply(.browsing(.viewResized(rows: screen.layout(width: width, height: height, state: state, mode: ui.mode).pageItems)))
        let frame = screen.frame(state, ui, width: width, height: height)
        return (frame.canvas, frame.layout, frame.wants)
    }

    /// Selects every photo and queues them all for download, past the free-space check; the items queued.
    static func queueEverything(_ state: inout BrowserState) -> [DownloadItem] {
        _ = state.apply(.selection(.allMatchingSelected))
        let effects = state.apply(.downloads(.downloadRequested))
        guard case .checkSpace(let items, _, let needed)? = effects.first(where: { if case .checkSpace = $0 { true } else { false } }) else {
            Issue.record("no space check in \(effects)")
            return []
        }
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: 1 << 40)))
        return items
    }

    /// The sizes every view is checked at, and the colour depths.
    static let sizes = [(120, 40), (80, 24), (40, 12)]
    static let depths: [Theme.Depth] = [.colors256, .monochrome]
}

extension Canvas {
    /// Rows as text with trailing spaces trimmed.
    var lines: [String] { text.components(separatedBy: "\n") }

    /// Whether any row contains `text`.
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// The row that contains `text`.
    func row(containing text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
}

import Testing

extension Canvas: CustomTestStringConvertible {
    /// Failures show the screen as text, not thousands of cells.
    public var testDescription: String { "\n" + text + "\n" }
}
