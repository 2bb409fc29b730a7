import PhotoPickKit

/// What the sender reports of the outbox's deltas, and how the replay of a last session's goes.
extension Tagging {
    mutating func deltasSent(photoID: Int, sequences: [Int64], serverTagIDs: [Int], _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        let sent = Set(sequences)
        if context.isWalking { confirmed[photoID] = serverTagIDs }
        let remaining = pending.remove(of: photoID) { sent.contains($0.sequence) }
        if let index = shared.library.index(ofID: photoID) {
            // The server's set now includes changes made elsewhere; edits still queued go on top of it.
            shared.library.setTagIDs(remaining.reduce(serverTagIDs) { $1.applied(to: $0) }, at: index)
        }
        return noteReplay(photoID, sequences, rejected: false, &shared)
    }

    mutating func deltasRejected(photoID: Int, sequences: [Int64], reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        let rejected = Set(sequences)
        revert((pending[photoID] ?? []).filter { rejected.contains($0.sequence) }, of: photoID, &shared)
        let name = shared.library.index(ofID: photoID).map { shared.library.filename(at: $0) } ?? "photo \(photoID)"
        return shared.post(.error, "Could not change the tags of \(name): \(reason) The change was undone.")
            + noteReplay(photoID, sequences, rejected: true, &shared)
    }

    /// Counts the photos whose edits from the last session are settled, and reports once none waits.
    private mutating func noteReplay(_ photoID: Int, _ sequences: [Int64], rejected: Bool, _ shared: inout Shared) -> [BrowserEffect] {
        guard var replay else { return [] }
        if sequences.contains(where: { $0 < pending.restoredBelow }) {
            if rejected { replay.rejected.insert(photoID) } else { replay.sent.insert(photoID) }
        }
        self.replay = replay
        return reportReplayIfDone(&shared)
    }

    /// Says how the replay went once no restored delta waits: photos, not edits, are what the user acted on.
    mutating func reportReplayIfDone(_ shared: inout Shared) -> [BrowserEffect] {
        guard let replay, pending.restoredCount == 0 else { return [] }
        self.replay = nil
        let sent = replay.sent.subtracting(replay.rejected)
        guard !sent.isEmpty || !replay.rejected.isEmpty else { return [] }
        let text = "Sent the tag changes of \(Self.photos(sent.count)) left from the last session"
        return replay.rejected.isEmpty
            ? shared.post(.info, text + ".")
            : shared.post(.warning, text + "; those of \(Self.photos(replay.rejected.count)) could not be applied.")
    }
}
