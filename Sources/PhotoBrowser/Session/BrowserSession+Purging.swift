import Foundation
import PhotoPickKit

extension BrowserSession {
    /// The purge log: one per state folder, every library's deletions in it.
    var purgeLog: PurgeLog {
        PurgeLog(url: configuration.stateDirectory.appending(path: "purge-log.jsonl", directoryHint: .notDirectory))
    }

    /// The photos of this library a purge deleted, by the purge log: a repeated `rm` skips them.
    public func purgedPhotoIDs() throws -> Set<Int> {
        Set(try purgeLog.records().filter { $0.library == configuration.library && $0.kind == .deleted }.map(\.id))
    }

    func purger(keepOriginals: URL?) -> Purger {
        Purger(client: client, log: purgeLog, library: configuration.library, keepOriginals: keepOriginals)
    }

    /// Runs a purge in the user's lane, reporting each photo; it is not held for a provisional library,
    /// since the user only confirms a purge of a library the server confirmed.
    func purge(_ items: [PurgeItem], keepOriginals: URL?) {
        let purger = purger(keepOriginals: keepOriginals)
        background { _ in
            let report = await purger.run(items) { report in await self.post(.purgeProgressed(report)) }
            self.send(.purgeFinished(report))
        }
    }

    /// Asks the server about deletions a killed purge left unanswered, and reports them (an empty report
    /// when there were none, so a script can wait for the answer).
    func settleInterruptedPurges() {
        let purger = purger(keepOriginals: nil)
        background { _ in
            do {
                self.send(.interruptedPurgeSettled(try await purger.settleInterrupted()))
            } catch {
                self.send(.noticePosted(.error, "The purge log cannot be read: \(error)"))
                self.send(.interruptedPurgeSettled(PurgeReport()))
            }
        }
    }
}
