import Foundation

/// What the session found when it read the files of finished downloads a request named. Only a file
/// photopick recorded writing, whose bytes still hash to the record, is "already there"; a file of ours
/// changed since is the user's from then on: kept as it is, and the photo fetched again beside it.
package struct FinishedDownloadCheck: Sendable, Equatable {
    /// Every item looked at.
    var checked: Set<Int64> = []
    /// Items whose files are exactly as photopick wrote them.
    var intact: Set<Int64> = []
    /// Items whose files photopick wrote and that changed since, with their paths.
    var changed: [Int64: String] = [:]

    /// An empty check.
    init(checked: Set<Int64> = [], intact: Set<Int64> = [], changed: [Int64: String] = [:]) {
        self.checked = checked
        self.intact = intact
        self.changed = changed
    }

    /// Whether the item's file counts as already there. One not looked at finished while the check ran:
    /// the download that finished it has just verified it.
    func isAlreadyThere(_ item: DownloadItem) -> Bool {
        intact.contains(item.id) || !checked.contains(item.id)
    }
}
