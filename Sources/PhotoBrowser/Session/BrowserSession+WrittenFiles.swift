import Foundation
import PhotoPickKit

extension BrowserSession {
    /// Records each file a download is about to put in place, durably, before it appears under its name.
    var writtenFileRecorder: @Sendable (WrittenFile) async throws -> Void {
        let store = downloadStore
        return { file in try store.recordWritten(file) }
    }

    /// The files photopick wrote in `folder` or below it, as recorded when each was written.
    package func writtenFiles(under folder: URL) throws -> [WrittenFile] {
        try downloadStore.writtenFiles(under: folder)
    }

    /// Records a file photopick wrote itself outside a download, such as a sidecar.
    package func recordWrittenFile(_ file: WrittenFile) throws {
        try downloadStore.recordWritten(file)
    }

    /// Forgets the records of these paths: deleted, gone, or the user's now.
    package func forgetWrittenFiles(_ paths: [String]) throws {
        try downloadStore.forgetWritten(paths)
    }
}
