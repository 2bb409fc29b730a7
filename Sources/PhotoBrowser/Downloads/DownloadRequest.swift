import Foundation
import PhotoPickKit

/// A download the user or a script asked for, held as asked while the files of its finished items are
/// checked: the selection or the folder may change meanwhile, the request does not.
package struct DownloadRequest: Sendable, Equatable {
    /// Who asked: the browser's `d` and a script's `get` differ in what they say and in what they resume.
    enum Origin: Sendable, Equatable {
        case browser
        case script
    }

    /// Who asked.
    let origin: Origin
    /// The photos, each with its folder under `root` and its name.
    let wanted: [ScriptDownload]
    /// The variant.
    let variant: DownloadSize
    /// The folder asked for.
    let root: URL

    /// A request as asked.
    init(origin: Origin, wanted: [ScriptDownload], variant: DownloadSize, root: URL) {
        self.origin = origin
        self.wanted = wanted
        self.variant = variant
        self.root = root
    }
}
