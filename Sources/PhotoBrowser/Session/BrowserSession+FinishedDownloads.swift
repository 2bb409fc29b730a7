import Foundation
import Logging
import PhotoPickKit

extension BrowserSession {
    /// Reads the files of finished downloads against the records of what photopick wrote, off the main
    /// actor, then carries on with the request that asked.
    func checkFinishedDownloads(_ items: [DownloadItem], then request: DownloadRequest) {
        let store = downloadStore, logger = configuration.logger, settling = configuration.stampSettling
        background {
            let check = await Self.check(items, store: store, settling: settling, logger: logger)
            self.report(.downloads(.finishedDownloadsChecked(check, then: request)))
        }
    }

    /// Intact means recorded as written for this photo and variant, and still hashing to the record (or
    /// still stamped as when it last did, so a re-run over a thousand files reads none of them). A file
    /// with no record, from an older photopick or the user's copy found identical, is not ours: it is
    /// queued again, and the download finds it identical by the server's digest without writing.
    @concurrent
    private nonisolated static func check(
        _ items: [DownloadItem], store: DownloadStore, settling: Duration, logger: Logger
    ) async -> FinishedDownloadCheck {
        var check = FinishedDownloadCheck()
        for item in items {
            guard !Task.isCancelled else { break }
            check.checked.insert(item.id)
            guard let path = item.resultPath else { continue }
            do {
                guard let record = try store.writtenFile(at: path), record.photoID == item.photoID,
                      record.variant == item.variant.rawValue
                else { continue }
                let (state, stamp) = record.currentStateTrustingStamp(settling: settling)
                switch state {
                case .intact:
                    check.intact.insert(item.id)
                    if let stamp { try store.recordVerified(record, as: stamp) }
                case .changed: check.changed[item.id] = path
                case .gone: break
                }
            } catch {
                // Not knowing is not intact: fetched again, the download never overwrites anything.
                logger.error("written files: \(error)")
            }
        }
        return check
    }
}
