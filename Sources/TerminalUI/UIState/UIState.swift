import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPreviews

/// What the front end shows on top of the browser state: the mode it is in, what is being typed,
/// and where the cursors of its panels are. Views read it; `Controller` changes it.
public struct UIState: Sendable, Equatable {
    /// A panel or dialog over the list, which takes the keys while it is open.
    enum Overlay: Sendable, Equatable {
        case help(scroll: Int)
        case details(scroll: Int)
        case queue(cursor: Int)
        case picker(Picker)
        case prompt(Prompt)
        case editForm(EditForm)
        case confirmQuit
        /// `I`: the photos listed in charts.
        case stats(StatsView.Cursor)
    }

    /// A list to choose from, with an optional query.
    struct Picker: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// `t`: toggle tags on the selection or the current photo, or create one.
            case tags
            /// `f`: which tags the list shows.
            case tagFilter
            /// `o`: which variant `d` downloads.
            case variant
            /// `T`: rename, recolour or delete tags.
            case manageTags
            /// `S`: the config's saved searches.
            case savedSearches
            /// `Y`: what to copy to the clipboard.
            case copy
        }

        var kind: Kind
        var query = TextField()
        var cursor = 0

        init(kind: Kind) {
            self.kind = kind
        }

        /// Whether typing goes into the query; the other pickers use letters as commands.
        var takesQuery: Bool { kind == .tags }
    }

    /// A question with a typed answer or a yes/no.
    struct Prompt: Sendable, Equatable {
        enum Purpose: Sendable, Equatable {
            case newTag
            case renameTag(id: Int)
            case recolourTag(id: Int)
            case deleteTag(id: Int)
            /// `B`: pick the sharpest frame of each burst, as counted when asked.
            case pickSharpest(SharpestFrames)
            /// `#`: delete these photos from the server once their count is typed.
            case purge(photoIDs: [Int], bytes: Int64)
            /// `Ctrl-E` came back with changes: apply them (y) or not; the edited file goes either way.
            case applyBulkEdit([PhotoFieldChange], summary: String, file: URL)
        }

        var purpose: Purpose
        var field: TextField
        /// Why the last answer was refused, shown under the question.
        var problem: String?

        init(_ purpose: Purpose, text: String = "") {
            self.purpose = purpose
            field = TextField(text)
        }

        /// Whether it is answered with y or n rather than text.
        var isConfirmation: Bool {
            switch purpose {
            case .deleteTag, .pickSharpest, .applyBulkEdit: true
            default: false
            }
        }
    }

    /// `C`: photos side by side, one of them active; marks go on the active one.
    struct Compare: Sendable, Equatable {
        /// At most this many show at once; h and l scroll through more.
        static let maximumShown = 4

        /// The photos, by id, in list order.
        var photoIDs: [Int]
        /// The active photo's position in `photoIDs`.
        var active = 0
        /// The first shown.
        var first = 0

        /// `photoIDs` must not be empty.
        init(photoIDs: [Int], active: Int = 0) {
            precondition(!photoIDs.isEmpty, "compare needs a photo")
            self.photoIDs = photoIDs
            self.active = 0
            move(by: active)
        }

        var activeID: Int { photoIDs[active] }

        /// The positions on screen.
        var shown: Range<Int> { first..<min(photoIDs.count, first + Self.maximumShown) }

        /// Makes the next or previous photo active, scrolling to keep it shown.
        mutating func move(by step: Int) {
            active = min(max(0, active + step), photoIDs.count - 1)
            if active < first { first = active }
            if active >= first + Self.maximumShown { first = active - Self.maximumShown + 1 }
        }
    }

    /// `z`: the photo of the full-screen preview, or every photo of compare, at 100% around one point of
    /// the picture, so that compare's photos show the same part.
    struct Zoom: Sendable, Equatable {
        /// Where the views are centred.
        var centre: UnitPoint

        /// Moves by a third of the view, stopping where the view meets the picture's edge.
        mutating func pan(_ direction: Loupe.Direction, _ geometry: LoupeGeometry) {
            let image = geometry.imageSize
            guard image.width > 0, image.height > 0 else { return }
            let view = PixelSize(width: min(geometry.viewport.width, image.width), height: min(geometry.viewport.height, image.height))
            let stepX = Double(max(1, view.width / 3)) / Double(image.width), stepY = Double(max(1, view.height / 3)) / Double(image.height)
            clamp(geometry)
            var x = centre.x, y = centre.y
            switch direction {
            case .left: x -= stepX
            case .right: x += stepX
            case .up: y -= stepY
            case .down: y += stepY
            }
            centre = UnitPoint(x: x, y: y)
            clamp(geometry)
        }

        /// Keeps the centre where the view stays inside the picture, so that a pan away from an edge
        /// always moves it.
        mutating func clamp(_ geometry: LoupeGeometry) {
            let image = geometry.imageSize
            guard image.width > 0, image.height > 0 else { return }
            let view = PixelSize(width: min(geometry.viewport.width, image.width), height: min(geometry.viewport.height, image.height))
            let halfX = Double(view.width) / 2 / Double(image.width), halfY = Double(view.height) / 2 / Double(image.height)
            centre = UnitPoint(x: min(max(halfX, centre.x), 1 - halfX), y: min(max(halfY, centre.y), 1 - halfY))
        }
    }

    /// How the photos are shown: one per row, or a contact sheet of thumbnails.
    public enum Mode: Sendable, Equatable {
        case list, grid
    }

    /// The list or the grid.
    public var mode = Mode.list
    /// `p`: the current photo fills the body; `j`/`k` step through the photos.
    var fullPreview = false
    /// The way the cursor last moved, +1 or -1: previews are fetched ahead in that direction.
    var travel = 1
    var overlay: Overlay?
    /// Compare, over whatever was shown before; Esc returns to it.
    var compare: Compare?
    /// The loupe, over the full-screen preview or compare; `z` or Esc returns to it.
    var zoom: Zoom?
    /// The filter being typed after `/`; `nil` when not typing.
    var filterField: TextField?
    /// `c`: digits rate and label, and every mark moves to the next photo.
    public internal(set) var culling = false
    /// `H`: the histogram over the full-screen preview and the loupe (the side pane always has one).
    var histogram = false
    /// `J`: blown highlights red and crushed shadows blue, in full screen, compare and the loupe.
    var clipping = false

    /// Browsing the list, nothing open.
    public init() {}

    /// Opens the charts of the photos `state` lists, as `I` does (for the benchmark, which draws them).
    public mutating func openStats(_ state: BrowserState) {
        overlay = .stats(StatsView.Cursor(stats: state.libraryStats()))
    }
}
