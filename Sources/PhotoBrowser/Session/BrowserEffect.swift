import Foundation
import PhotoPickKit

/// Work an event asks for, run by `BrowserSession`; its results come back as events.
package enum BrowserEffect: Sendable, Equatable {
    /// Walks the library's pages into the catalogue, resuming the walk under way if there is one.
    case walkLibrary
    /// Works out a new filter over a large library in the background; reports `.listFiltered`.
    case filterList(FilterJob)
    /// Sends `.refreshDue` after this long.
    case scheduleRefresh(after: Duration)
    case cancelLoading
    /// Gives the allocator's free pages back to the system, once a listing's or the catalogue's decoding
    /// is over: what it dropped would otherwise stay resident for the session.
    case releaseFreedMemory
    /// Writes a bulk (and the tag it waits for) to the outbox before the event's handling ends.
    case recordTagBulk(TagBulk, creating: [PendingTag])
    case recordTagDeltas([TagDelta])
    /// Writes photo edits to their outbox before the event's handling returns.
    case recordPhotoEdits([PhotoEdit])
    /// Deletes photos from the server, logged in the purge log (`Purger`).
    case purge([PurgeItem], keepOriginals: URL?)
    /// Forgets photos deleted from the server in the catalogue.
    case forgetPhotos([Int])
    /// Keeps the server's copy of a photo in the catalogue.
    case savePhoto(Photo)
    /// Deltas some of which name tags not made yet: the tags' creations and the deltas are written as one.
    case recordTagCreation([PendingTag], deltas: [TagDelta])
    /// Keep a photo's focus score in the catalogue.
    case saveFocusScore(photoID: Int, score: Double)
    case discardTagDeltas(tagID: Int)
    case createTag(name: String, color: String?)
    case renameTag(id: Int, name: String)
    case recolourTag(id: Int, color: String?)
    case deleteTag(id: Int)
    case checkSpace([DownloadItem], directory: URL, needed: Int64)
    /// Reads the files of these finished items against the records of what photopick wrote, off the main
    /// actor, and sends `.finishedDownloadsChecked` to carry on with the request.
    case checkFinishedDownloads([DownloadItem], then: DownloadRequest)
    /// Forgets the records of these files: they changed since photopick wrote them, and are the user's now.
    case forgetWrittenFiles([String])
    case saveDownloads([DownloadItem])
    case deleteDownloads([DownloadItem], discardPartials: Bool)
    case startDownload(DownloadItem)
    case stopDownload(id: Int64)
    case expireMessage(id: Int)
}
