import Foundation
import PhotoPickKit

extension BrowserSession {
    /// The purge log: one per state folder, every library's deletions in it.
    var purgeLog: PurgeLog {
        PurgeLog(url: configuration.stateDirectory.appending(path: "purge-log.jsonl", directoryHint: .notDirectory))
    }

    /// The photos of this library a purge deleted, by the purge log: a repeated `rm` skips them.
    package func purgedPhotoIDs() throws -> Set<Int> {
        Set(try purgeLog.records().filter { $0.library == configuration.library && $0.kind == .deleted }.map(\.id))
    }

    func purger(keepOriginals: URL?) -> Purger {
        Purger(client: client, log: purgeLog, library: configuration.library, keepOriginals: keepOriginals, clock: clock)
    }

    /// Runs a purge in the user's lane, reporting each photo. A library the server has not confirmed yet
    /// (the last run's, shown before the key is checked) may be another account's: nothing is deleted.
    func purge(_ items: [PurgeItem], keepOriginals: URL?) {
        guard isConfirmed else {
            var summary = PurgeSummary()
            for item in items { summary.failed[item.photo.id] = "the server has not confirmed this library yet; purge again in a moment" }
            return report(.purge(.purgeFinished(summary)))
        }
        let purger = purger(keepOriginals: keepOriginals)
        background {
            let summary = await purger.run(items) { [weak self] summary in await self?.report(.purge(.purgeProgressed(summary))) }
            self.report(.purge(.purgeFinished(summary)))
        }
    }

    /// Asks the server about deletions a killed purge left unanswered, and reports them (an empty report
    /// when there were none, so a script can wait for the answer).
    func settleInterruptedPurges() {
        let purger = purger(keepOriginals: nil)
        background {
            do {
                self.report(.purge(.interruptedPurgeSettled(try await purger.settleInterrupted())))
            } catch {
                self.send(.status(.noticePosted(.error, "The purge log cannot be read: \(error)")))
                self.report(.purge(.interruptedPurgeSettled(PurgeSummary())))
            }
        }
    }
}
